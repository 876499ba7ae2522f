import { z } from 'zod';

const REDEMPTION_NAME_MAX = 20;
export const REDEMPTION_MAX_COUNT = 100;
export const REDEMPTION_DEFAULT_QUOTA = 100000;

export interface Redemption {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
}

const name = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'Please enter a name for the codes')
  .max(REDEMPTION_NAME_MAX, `The name must be 1 to ${REDEMPTION_NAME_MAX} characters`);
const quota = z
  .number({ error: 'quota must be a number' })
  .int('quota must be a whole number')
  .min(0, 'quota cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'quota is too large');
const id = z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required');

export const createRedemptionInput = z.object({
  name,
  quota: quota.default(REDEMPTION_DEFAULT_QUOTA),
  count: z
    .number({ error: 'count must be a number' })
    .int('count must be a whole number')
    .min(1, 'count must be at least 1')
    .max(REDEMPTION_MAX_COUNT, `At most ${REDEMPTION_MAX_COUNT} codes can be created at once`)
    .default(1),
});

export const updateRedemptionInput = z.object({ id, name, quota });

export const redemptionStatusInput = z.object({
  id,
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (unused) or 2 (disabled)' }),
});

export const redeemInput = z.object({
  key: z
    .string({ error: 'Please enter the top-up code' })
    .trim()
    .min(1, 'Please enter the top-up code')
    .max(64, 'This top-up code is not valid: codes are 32 characters long'),
});

export type CreateRedemptionInput = z.infer<typeof createRedemptionInput>;
export type UpdateRedemptionInput = z.infer<typeof updateRedemptionInput>;
