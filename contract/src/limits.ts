import { z } from 'zod';

/**
 * Per-key and per-user limits (ours; one-api has none). A limit is a whole number; 0 (or an absent field, or an
 * empty form field) means no limit. A user's limits are set by an administrator and cap every key of
 * that user: a key's own limit may only be lower, and a key without one gets the user's.
 */
export const LIMIT_MAX = 1_000_000_000;

/** How often a key's budget starts over: at 00:00 of the server's time zone, Mondays for weekly, the 1st for monthly. */
export const BUDGET_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** The limits a key or a user carries, as the API answers them (0: none). */
export interface RateLimits {
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
}

export const RATE_LIMIT_FIELDS = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;

const limit = (field: string, what: string) =>
  z
    .number({ error: `${field} must be a number (${what}; 0 for no limit)` })
    .int(`${field} must be a whole number (${what})`)
    .min(0, `${field} cannot be negative; 0 means no limit`)
    .max(LIMIT_MAX, `${field} is too large`);

export const rateLimitFields = {
  rpm_limit: limit('rpm_limit', 'requests per minute'),
  tpm_limit: limit('tpm_limit', 'tokens per minute'),
  concurrency_limit: limit('concurrency_limit', 'requests at the same time'),
};

export const budgetQuota = z
  .number({ error: 'budget_quota must be a number (quota per period; 0 for no budget)' })
  .int('budget_quota must be a whole number')
  .min(0, 'budget_quota cannot be negative; 0 means no budget')
  .max(Number.MAX_SAFE_INTEGER, 'budget_quota is too large');

export const budgetPeriod = z.enum(['', ...BUDGET_PERIODS], {
  error: 'budget_period must be daily, weekly or monthly (or empty for no budget)',
});

/** The lower of two limits, 0 meaning none. */
export const lowerLimit = (a: number, b: number): number => (a > 0 && b > 0 ? Math.min(a, b) : a || b);
