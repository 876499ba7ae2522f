import { z } from 'zod';
import { parseSubnetList } from './subnet';

const TOKEN_NAME_MAX = 30;
/** tokens.subnet is varchar(191): the stored list (entries joined by commas) must fit. */
export const TOKEN_SUBNET_MAX = 191;
/** tokens.models is text; a generous cap on the stored list. */
const TOKEN_MODELS_MAX = 10_000;
export const TOKEN_DEFAULT_REMAIN_QUOTA = 500000;
export const NEVER_EXPIRES = -1;

/** A token (API key) as the API returns it to its owner; `key` is stored and sent without `sk-`. */
export interface Token {
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
};

export const createTokenInput = z.object(tokenFields);

export const updateTokenInput = z.object({
  id: z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required'),
  ...tokenFields,
});

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
