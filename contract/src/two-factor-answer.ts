/**
 * What a sign-in answers when the account still needs its second step (zod-free: the sign-in page
 * reads it on its first download).
 */
export const TWO_FACTOR_MESSAGE = 'two_factor';

/** The `data` of a sign-in answered TWO_FACTOR_MESSAGE: whether the user can use a passkey too. */
export interface TwoFactorPending {
  two_factor: true;
  passkey: boolean;
}
