import { describe, expect, it } from 'vitest';
import { formatAxis } from './usage-format';

const dollars = { displayInCurrency: true, quotaPerUnit: 500000 };
const raw = { displayInCurrency: false, quotaPerUnit: 500000 };

describe('usage axis labels', () => {
  it('show dollars with the decimals the step needs', () => {
    expect(formatAxis('quota', 1_000_000, 500_000, dollars)).toBe('$2');
    expect(formatAxis('quota', 50_000, 25_000, dollars)).toBe('$0.10');
    expect(formatAxis('quota', 20, 10, dollars)).toBe('$0.00004');
    expect(formatAxis('quota', 0, 10, dollars)).toBe('$0');
  });

  it('shorten counts and raw quota', () => {
    expect(formatAxis('requests', 3, 1, dollars)).toBe('3');
    expect(formatAxis('tokens', 1500, 500, dollars)).toBe('1.5k');
    expect(formatAxis('tokens', 2_000_000, 1_000_000, dollars)).toBe('2M');
    expect(formatAxis('quota', 25_000, 5000, raw)).toBe('25k');
  });
});
