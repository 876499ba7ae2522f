import { z } from 'zod';
import { type RateLimits, rateLimitFields } from './limits';

/** Limits of user fields: the console reads them from the issues of the schemas below. */
const USERNAME_MAX = 12;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 20;
export const DISPLAY_NAME_MAX = 20;
export const EMAIL_MAX = 50;
/** users.group is varchar(32). */
export const USER_GROUP_MAX = 32;
export const USERNAME_DISPLAY_TRUNCATE = 15;

/**
 * A user as the API returns it (one-api's JSON keys; password and access_token are always ""), with
 * the limits an administrator set for every key of the user (0: none).
 */
export interface User extends RateLimits {
  id: number;
  username: string;
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  lark_id: string;
  oidc_id: string;
  /** The subject ("sub") of the OpenID Connect account bound to the user (ours; one-api's is oidc_id). */
  oidc_subject: string;
  verification_code: string;
  access_token: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  inviter_id: number;
}

const username = z
  .string({ error: 'username must be a string' })
  .trim()
  .min(1, 'username is required')
  .max(USERNAME_MAX, `username must be at most ${USERNAME_MAX} characters`);
const password = z
  .string({ error: 'password must be a string' })
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);
const optionalPassword = z.union([z.literal(''), password]).optional();
const displayName = z
  .string({ error: 'display name must be a string' })
  .trim()
  .max(DISPLAY_NAME_MAX, `display name must be at most ${DISPLAY_NAME_MAX} characters`);
/** One @, a dotted domain, no spaces or address punctuation. */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

const email = z
  .string({ error: 'email must be a string' })
  .trim()
  .max(EMAIL_MAX, `email must be at most ${EMAIL_MAX} characters`);
/** An address an admin sets: checked like a self-service one, or empty for none. */
const emailOrNone = email.refine(
  (value) => value === '' || EMAIL_PATTERN.test(value),
  'email is not a valid address',
);
const quota = z
  .number({ error: 'quota must be a number' })
  .int('quota must be a whole number')
  .min(0, 'quota cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'quota is too large');

export const loginInput = z.object({
  username: z.string({ error: 'username is required' }).min(1, 'username is required'),
  password: z.string({ error: 'password is required' }).min(1, 'password is required'),
});

export const registerInput = z.object({
  username,
  password,
  password2: z.string().optional(),
  display_name: displayName.optional(),
  email: email.optional(),
  verification_code: z.string().trim().max(64).optional(),
  aff_code: z.string().max(32).optional(),
});

export const createUserInput = z.object({
  username,
  password,
  display_name: displayName.optional(),
  role: z.number().int().optional(),
});

export const updateSelfInput = z.object({
  username: username.optional(),
  display_name: displayName.optional(),
  password: optionalPassword,
});

export const updateUserInput = z.object({
  id: z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required'),
  username: username.optional(),
  display_name: displayName.optional(),
  password: optionalPassword,
  email: emailOrNone.optional(),
  quota: quota.optional(),
  group: z
    .string({ error: 'group must be a string' })
    .trim()
    .min(1, 'group cannot be empty')
    .max(USER_GROUP_MAX, `group must be at most ${USER_GROUP_MAX} characters`)
    .optional(),
  role: z.number().int().optional(),
  status: z.number().int().optional(),
  rpm_limit: rateLimitFields.rpm_limit.optional(),
  tpm_limit: rateLimitFields.tpm_limit.optional(),
  concurrency_limit: rateLimitFields.concurrency_limit.optional(),
});

export const manageActions = ['disable', 'enable', 'delete', 'promote', 'demote'] as const;
export type ManageAction = (typeof manageActions)[number];

export const manageUserInput = z.object({
  username: z.string({ error: 'username is required' }).min(1, 'username is required'),
  action: z.enum(manageActions, { error: `action must be one of ${manageActions.join(', ')}` }),
});

export const adminTopupInput = z.object({
  user_id: z.number({ error: 'user_id is required' }).int().positive('user_id is required'),
  quota: z.number({ error: 'quota must be a number' }).int('quota must be a whole number'),
  remark: z.string().max(255).optional(),
});

export type LoginInput = z.infer<typeof loginInput>;
export type RegisterInput = z.infer<typeof registerInput>;
export type CreateUserInput = z.infer<typeof createUserInput>;
export type UpdateSelfInput = z.infer<typeof updateSelfInput>;
export type UpdateUserInput = z.infer<typeof updateUserInput>;

export const userListOrders = ['quota', 'used_quota', 'request_count'] as const;
