import { z } from 'zod';
import { EMAIL_MAX, EMAIL_PATTERN } from './users';

/** Mail verification codes and reset tokens: the lengths the server issues. */
export const EMAIL_CODE_LENGTH = 6;
export const RESET_TOKEN_LENGTH = 32;
/** Length of the new password a reset link gives out. */
export const RESET_PASSWORD_LENGTH = 12;
/** Length of the state an OAuth round trip carries. */
export const OAUTH_STATE_LENGTH = 12;

/** The message the OAuth callbacks answer when they linked an account instead of signing in. */
export const OAUTH_BIND_MESSAGE = 'bind';

/** A mail address the server will send to: one @, a dotted domain, no spaces, at most 50 characters. */
export const emailAddress = z
  .string({ error: 'email is required' })
  .trim()
  .min(1, 'email is required')
  .max(EMAIL_MAX, `email must be at most ${EMAIL_MAX} characters`)
  .regex(EMAIL_PATTERN, 'email is not a valid address');

/** POST /api/user/reset: the email and token from the reset link. */
export const passwordResetInput = z.object({
  email: emailAddress,
  token: z
    .string({ error: 'token is required' })
    .trim()
    .min(1, 'token is required')
    .max(64, 'token is invalid'),
});
