import { z } from 'zod';
import { type BudgetPeriod, budgetPeriod, budgetQuota, type RateLimits, rateLimitFields } from './limits';
import { parseSubnetList } from './subnet';

const TOKEN_NAME_MAX = 30;
/** tokens.subnet is varchar(191): the stored list (entries joined by commas) must fit. */
export const TOKEN_SUBNET_MAX = 191;
/** tokens.models is text; a generous cap on the stored list. */
const TOKEN_MODELS_MAX = 10_000;
export const TOKEN_DEFAULT_REMAIN_QUOTA = 500000;
export const NEVER_EXPIRES = -1;

/**
 * A token (API key) as the API returns it to its owner; `key` is stored and sent without `sk-`. Its
 * limits are its own (0: none; the user's limits still apply).
 */
export interface Token extends RateLimits {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  models: string;
  subnet: string;
  /** Quota this key may spend per period, besides its remaining quota (0: no budget). */
  budget_quota: number;
  budget_period: BudgetPeriod | '';
  /** Spent in the current period. */
  budget_used: number;
  /** When the current period ends (Unix seconds; 0 without a budget). */
  budget_reset_at: number;
}

const name = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'Please enter a token name')
  .max(TOKEN_NAME_MAX, `The token name must be at most ${TOKEN_NAME_MAX} characters`);
const expiredTime = z
  .number({ error: 'expired_time must be a number: -1 for never, or a Unix time in seconds' })
  .int('expired_time must be a whole number of seconds');
const remainQuota = z
  .number({ error: 'remain_quota must be a number' })
  .int('remain_quota must be a whole number')
  .min(0, 'remain_quota cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'remain_quota is too large');
/** Stored as trimmed, unique names joined by commas; empty means every model the owner may use. */
const modelList = z
  .string({ error: 'models must be a comma-separated string' })
  .nullish()
  .transform((value) => splitList(value).join(','))
  .pipe(z.string().max(TOKEN_MODELS_MAX, `The model list must be at most ${TOKEN_MODELS_MAX} characters`));
/** CIDR blocks, stored joined by commas in a column of TOKEN_SUBNET_MAX characters. */
const subnet = z
  .string({ error: 'subnet must be a comma-separated string' })
  .nullish()
  .transform((value, context) => {
    const parsed = parseSubnetList(value ?? '');
    if ('error' in parsed) {
      context.addIssue({
        code: 'custom',
        message: `Invalid subnet: ${parsed.error}`,
        params: { rule: 'cidr', entry: parsed.entry },
      });
      return z.NEVER;
    }
    return splitList(value).join(',');
  })
  .pipe(z.string().max(TOKEN_SUBNET_MAX, `The subnet list must be at most ${TOKEN_SUBNET_MAX} characters`));

const tokenFields = {
  name,
  expired_time: expiredTime.default(NEVER_EXPIRES),
  remain_quota: remainQuota.default(0),
  unlimited_quota: z.boolean({ error: 'unlimited_quota must be true or false' }).default(false),
  models: modelList,
  subnet,
  // Limits and budget (0: none). Absent on an update, they stay as they are, so that one-api's
  // clients, which do not know them, keep them.
  rpm_limit: rateLimitFields.rpm_limit.optional(),
  tpm_limit: rateLimitFields.tpm_limit.optional(),
  concurrency_limit: rateLimitFields.concurrency_limit.optional(),
  budget_quota: budgetQuota.optional(),
  budget_period: budgetPeriod.optional(),
};

/** A budget needs a period, and a period a budget: they are sent together. */
function budgetComplete(
  value: { budget_quota?: number; budget_period?: string },
  context: z.RefinementCtx,
): void {
  if (value.budget_quota === undefined && value.budget_period === undefined) return;
  if ((value.budget_quota ?? 0) > 0 && !value.budget_period) {
    context.addIssue({
      code: 'custom',
      path: ['budget_period'],
      message: 'Choose when the budget starts over: daily, weekly or monthly',
      params: { rule: 'budgetPeriod' },
    });
  }
  if (!value.budget_quota && value.budget_period) {
    context.addIssue({
      code: 'custom',
      path: ['budget_quota'],
      message: 'Enter the quota the key may spend per period, or choose no period',
      params: { rule: 'budgetQuota' },
    });
  }
}

export const createTokenInput = z.object(tokenFields).superRefine(budgetComplete);

export const updateTokenInput = z
  .object({
    id: z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required'),
    ...tokenFields,
  })
  .superRefine(budgetComplete);

export const tokenStatusInput = z.object({
  id: z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required'),
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' }),
});

export type CreateTokenInput = z.infer<typeof createTokenInput>;
export type UpdateTokenInput = z.infer<typeof updateTokenInput>;

export const tokenListOrders = ['remain_quota', 'used_quota'] as const;

/** Splits a comma list (models, groups) into trimmed, unique, non-empty names. */
export function splitList(list: string | null | undefined): string[] {
  return [
    ...new Set(
      (list ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}
