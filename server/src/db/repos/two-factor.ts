import type { Insertable } from 'kysely';
import type { Sql } from '../connect';
import type { PasskeyRow, TwoFactorPasskeysTable, TwoFactorRow } from '../schema';

export const findTwoFactor = (db: Sql, userId: number): Promise<TwoFactorRow | undefined> =>
  db.kysely.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** Whether the user signs in with a second factor (an enrolment confirmed by a code). */
export async function twoFactorEnabled(db: Sql, userId: number): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('two_factor')
    .select('enabled')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.enabled);
}

/**
 * Keeps a new, unconfirmed secret for the user unless two-factor sign-in is already on: one
 * statement that inserts the row if none, then one that replaces an unconfirmed secret. Answers
 * whether the secret was kept (false: already enabled).
 */
export async function saveUnconfirmedSecret(
  db: Sql,
  userId: number,
  secret: string,
  now: number,
): Promise<boolean> {
  const row = {
    user_id: userId,
    secret,
    enabled: false,
    last_step: 0,
    recovery_codes: '[]',
    failed_attempts: 0,
    attempts_since: 0,
    created_at: now,
  };
  await db.kysely
    .insertInto('two_factor')
    .values(row)
    .$call((query) =>
      db.dialect === 'mysql' ? query.ignore() : query.onConflict((conflict) => conflict.doNothing()),
    )
    .execute();
  const result = await db.kysely
    .updateTable('two_factor')
    .set({ secret, last_step: 0, recovery_codes: '[]', created_at: now })
    .where('user_id', '=', userId)
    .where('enabled', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Turns the confirmed enrolment on with its recovery codes' hashes; false when it was already on. */
export async function enableTwoFactor(db: Sql, userId: number, recoveryHashes: string[]): Promise<boolean> {
  const result = await db.kysely
    .updateTable('two_factor')
    .set({ enabled: true, recovery_codes: JSON.stringify(recoveryHashes) })
    .where('user_id', '=', userId)
    .where('enabled', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Replaces an enabled enrolment's recovery codes with new ones (their hashes). */
export async function setRecoveryCodes(db: Sql, userId: number, hashes: string[]): Promise<void> {
  await db.kysely
    .updateTable('two_factor')
    .set({ recovery_codes: JSON.stringify(hashes) })
    .where('user_id', '=', userId)
    .where('enabled', '=', true)
    .execute();
}

/** Removes the user's enrolment, confirmed or not, and its passkeys; answers whether there was one that was on. */
export async function deleteTwoFactor(db: Sql, userId: number): Promise<boolean> {
  const enabled = await db.kysely
    .deleteFrom('two_factor')
    .where('user_id', '=', userId)
    .where('enabled', '=', true)
    .executeTakeFirst();
  await db.kysely.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  await db.kysely.deleteFrom('two_factor_passkeys').where('user_id', '=', userId).execute();
  return Number(enabled.numDeletedRows) === 1;
}

/**
 * Takes one attempt of the user's allowance: a window older than `windowStart` starts afresh, else the
 * count rises while below `limit`. Conditional updates, so concurrent attempts cannot exceed it.
 */
export async function takeAttempt(
  db: Sql,
  userId: number,
  now: number,
  windowStart: number,
  limit: number,
): Promise<boolean> {
  const fresh = await db.kysely
    .updateTable('two_factor')
    .set({ failed_attempts: 1, attempts_since: now })
    .where('user_id', '=', userId)
    .where('attempts_since', '<=', windowStart)
    .executeTakeFirst();
  if (Number(fresh.numUpdatedRows) === 1) return true;
  const counted = await db.kysely
    .updateTable('two_factor')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('attempts_since', '>', windowStart)
    .where('failed_attempts', '<', limit)
    .executeTakeFirst();
  return Number(counted.numUpdatedRows) === 1;
}

/** A right code clears the attempts counted against the user. */
export async function clearAttempts(db: Sql, userId: number): Promise<void> {
  await db.kysely
    .updateTable('two_factor')
    .set({ failed_attempts: 0, attempts_since: 0 })
    .where('user_id', '=', userId)
    .execute();
}

/** Accepts a TOTP time step once: only a step newer than every one accepted before moves it. */
export async function claimStep(db: Sql, userId: number, step: number): Promise<boolean> {
  const result = await db.kysely
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Replaces the recovery codes' hashes if they are still `expected`: of two uses of one code, one wins. */
export async function replaceRecoveryCodes(
  db: Sql,
  userId: number,
  expected: string,
  next: string[],
): Promise<boolean> {
  const result = await db.kysely
    .updateTable('two_factor')
    .set({ recovery_codes: JSON.stringify(next) })
    .where('user_id', '=', userId)
    .where('enabled', '=', true)
    .where('recovery_codes', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const listPasskeys = (db: Sql, userId: number): Promise<PasskeyRow[]> =>
  db.kysely
    .selectFrom('two_factor_passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

export const findPasskey = (db: Sql, id: string): Promise<PasskeyRow | undefined> =>
  db.kysely.selectFrom('two_factor_passkeys').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertPasskey(db: Sql, row: Insertable<TwoFactorPasskeysTable>): Promise<void> {
  await db.kysely.insertInto('two_factor_passkeys').values(row).execute();
}

export async function deletePasskey(db: Sql, userId: number, id: string): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('two_factor_passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Records a use and the authenticator's new signature count (checked to move forward before). */
export async function recordPasskeyUse(db: Sql, id: string, counter: number, now: number): Promise<void> {
  await db.kysely
    .updateTable('two_factor_passkeys')
    .set({ counter, last_used_at: now })
    .where('id', '=', id)
    .execute();
}
