import { beforeEach, describe, expect, it } from 'vitest';
import { balanceText, orderChange, responseSeconds, responseTimeColor } from './channel-display';

beforeEach(() => {
  window.localStorage.setItem('display_in_currency', 'true');
  window.localStorage.setItem('quota_per_unit', '500000');
});

describe('response time', () => {
  it('is grey when untested, then green, olive, yellow and red by speed', () => {
    expect(responseTimeColor(0)).toBe('gray');
    expect(responseTimeColor(1)).toBe('green');
    expect(responseTimeColor(1000)).toBe('green');
    expect(responseTimeColor(1001)).toBe('lime');
    expect(responseTimeColor(3000)).toBe('lime');
    expect(responseTimeColor(3001)).toBe('yellow');
    expect(responseTimeColor(5000)).toBe('yellow');
    expect(responseTimeColor(5001)).toBe('red');
  });

  it('is shown in seconds with two decimals', () => {
    expect(responseSeconds(1234)).toBe('1.23');
    expect(responseSeconds(250)).toBe('0.25');
  });
});

describe('balance', () => {
  it('shows dollars for OpenAI (1) and custom (8) channels', () => {
    expect(balanceText(1, 12.345)).toBe('$12.35');
    expect(balanceText(8, 0)).toBe('$0.00');
  });

  it('shows yuan for CloseAI (4) and API2GPT (12), and yuan ÷ 10000 for OpenAI-SB (5)', () => {
    expect(balanceText(4, 3.5)).toBe('¥3.50');
    expect(balanceText(12, 7)).toBe('¥7.00');
    expect(balanceText(5, 123456)).toBe('¥12.35');
  });

  it('shows AI Proxy (10) and AIGC2D (13) points as a quota number, whatever the currency setting', () => {
    expect(balanceText(10, 123456)).toBe('123.5k');
    expect(balanceText(13, 500)).toBe('500');
  });

  it('is not supported for the other types', () => {
    for (const type of [2, 3, 14, 15, 18, 20, 24, 30, 99]) expect(balanceText(type, 5)).toBeNull();
  });
});

describe('inline priority and weight', () => {
  it('ignores an empty priority and sends a whole one', () => {
    expect(orderChange(4, 'priority', '')).toBeNull();
    expect(orderChange(4, 'priority', '-3')).toEqual({ id: 4, priority: -3 });
    expect(orderChange(4, 'priority', '1.5')).toBeNull();
  });

  it('sends the weight as an integer, a negative one as 0', () => {
    expect(orderChange(4, 'weight', '7')).toEqual({ id: 4, weight: 7 });
    expect(orderChange(4, 'weight', '-5')).toEqual({ id: 4, weight: 0 });
    expect(orderChange(4, 'weight', '')).toBeNull();
  });
});
