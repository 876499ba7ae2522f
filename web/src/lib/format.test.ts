import { abbreviateNumber, formatQuota } from '@switchyard/contract/quota-format';
import { describe, expect, it } from 'vitest';
import {
  renderLogQuota,
  renderNumber,
  renderQuota,
  renderTimestamp,
  renderTokenQuota,
  truncateText,
} from './format';
import { StorageKey } from './storage';

function displaySettings(displayInCurrency: boolean, quotaPerUnit = 500000) {
  window.localStorage.setItem(StorageKey.displayInCurrency, String(displayInCurrency));
  window.localStorage.setItem(StorageKey.quotaPerUnit, String(quotaPerUnit));
}

describe('quota display', () => {
  it('shows dollars with 2 decimals when currency display is on', () => {
    displaySettings(true);
    expect(renderQuota(500000)).toBe('$1.00');
    expect(renderQuota(1234567)).toBe('$2.47');
    expect(renderQuota(0)).toBe('$0.00');
  });

  it("groups the thousands of an amount (root's quota)", () => {
    displaySettings(true);
    expect(renderQuota(500_000_000_000_000)).toBe('$1,000,000,000.00');
    expect(renderQuota(617_283_500)).toBe('$1,234.57');
    expect(renderQuota(-500_000_000)).toBe('$-1,000.00');
    expect(renderLogQuota(500_000_000)).toBe('$1,000.000000');
  });

  it('shows a small amount that is not zero with enough digits to see it (a cheap call)', () => {
    displaySettings(true);
    expect(renderQuota(600)).toBe('$0.0012');
    expect(renderQuota(1000)).toBe('$0.002');
    expect(renderTokenQuota(37)).toBe('$0.000074');
    expect(renderQuota(1)).toBe('$0.000002');
    expect(renderQuota(-600)).toBe('$-0.0012');
    expect(renderQuota(2500)).toBe('$0.005');
    expect(renderQuota(5000)).toBe('$0.01');
    expect(renderQuota(5600)).toBe('$0.01');
    expect(renderLogQuota(600)).toBe('$0.001200');
  });

  it('follows the server quota_per_unit', () => {
    displaySettings(true, 1000);
    expect(renderQuota(2500)).toBe('$2.50');
  });

  it('uses 6 decimals in logs and 2 for tokens', () => {
    displaySettings(true);
    expect(renderLogQuota(1)).toBe('$0.000002');
    expect(renderTokenQuota(123456)).toBe('$0.25');
  });

  it('abbreviates when currency display is off', () => {
    displaySettings(false);
    expect(renderQuota(9999)).toBe('9999');
    expect(renderQuota(10000)).toBe('10.0k');
    expect(renderQuota(2500000)).toBe('2.5M');
    expect(renderQuota(3_000_000_000)).toBe('3.0B');
  });

  it('treats missing settings as raw numbers', () => {
    expect(renderQuota(12345)).toBe('12.3k');
  });

  it('never divides by zero', () => {
    expect(formatQuota(5, { displayInCurrency: true, quotaPerUnit: 0 })).toBe('$5.00');
  });
});

describe('numbers, times and text', () => {
  it('abbreviates from 10,000 with k, then M and B', () => {
    expect(abbreviateNumber(0)).toBe('0');
    expect(abbreviateNumber(10_000)).toBe('10.0k');
    expect(abbreviateNumber(999_999)).toBe('1000.0k');
    expect(abbreviateNumber(1_000_000)).toBe('1.0M');
    expect(renderNumber(1_500_000_000)).toBe('1.5B');
  });

  it('formats seconds since the epoch as YYYY-MM-DD HH:mm:ss in local time', () => {
    const seconds = new Date(2024, 0, 2, 3, 4, 5).getTime() / 1000;
    expect(renderTimestamp(seconds)).toBe('2024-01-02 03:04:05');
  });

  it('truncates long text with an ellipsis at the limit', () => {
    expect(truncateText('short', 15)).toBe('short');
    expect(truncateText('abcdefghijklmnop', 15)).toBe('abcdefghijkl...');
    expect(truncateText('abcdefghijklmnop', 15)).toHaveLength(15);
  });
});
