/**
 * How the console shows quota. One place for the rules, so every screen
 * (users, tokens, logs, top-up) renders the same numbers.
 */

/** Settings that decide the display, copied from GET /api/status. */
export interface QuotaDisplay {
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/** Decimals used by the console: 2 by default and for tokens, 6 in log rows. */
export const QUOTA_DIGITS = { default: 2, token: 2, log: 6 } as const;

/** 12345 → "12.3k", 2500000 → "2.5M"; below 10,000 the number is shown as is. */
export function abbreviateNumber(value: number): string {
  if (value >= 1_000_000_000) return `${(value / 1_000_000_000).toFixed(1)}B`;
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 10_000) return `${(value / 1000).toFixed(1)}k`;
  return String(value);
}

/** Quota in the unit shown: dollars (QuotaPerUnit quota make $1) when currency display is on, else quota. */
export function quotaAmount(quota: number, display: QuotaDisplay): number {
  if (!display.displayInCurrency) return quota;
  return quota / (display.quotaPerUnit > 0 ? display.quotaPerUnit : 1);
}

/** Quota as dollars ("$1.00") when currency display is on, otherwise abbreviated. */
export function formatQuota(
  quota: number,
  display: QuotaDisplay,
  digits: number = QUOTA_DIGITS.default,
): string {
  if (display.displayInCurrency) return `$${quotaAmount(quota, display).toFixed(digits)}`;
  return abbreviateNumber(quota);
}
