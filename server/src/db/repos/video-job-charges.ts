import { budgetPeriodStart } from '@switchyard/contract/budget-period';
import { sql, type Updateable } from 'kysely';
import type { Sql } from '../connect';
import type { NewLogRow, VideoJobRow, VideoJobsTable } from '../schema';
import { inTransaction } from '../transaction';
import { insertLogRow } from './logs';

/**
 * A video job's money lives on its row while it runs (billing 'charged'): taken from the balance in
 * the transaction that records the job, and settled or given back once, each by a guarded move of
 * the row's billing in the transaction that moves the quota. No process owns it, so no crash,
 * restart or lease sweep gives it back early (see docs/ledger.md).
 */

/** The process's hold a job's charge replaces (the ledger's hold row, see db/ledger/statements.ts). */
export interface ChargedHold {
  holder: string;
  amount: number;
}

/** Whether the key carries quota for the job: a limited key, or one with a periodic budget. */
const keyCarries = (job: VideoJobRow) => !job.unlimited_token || job.budget_period !== '';

/**
 * Records `job` charged: the process's hold for it released and the same amount taken from the
 * user's balance (and the limited key's, and its budget period), with the row inserted, in one
 * transaction. What the account can spend does not change, so the hold's guard still covers it.
 * False when the hold is gone (the process lost its lease and a sweep gave it back): nothing is done.
 */
export function insertChargedVideoJob(db: Sql, job: VideoJobRow, hold: ChargedHold): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const amount = job.quota;
    const tokenAmount = keyCarries(job) ? amount : 0;
    const released = await tx.kysely
      .updateTable('quota_holds')
      .set((eb) => ({
        amount: eb('amount', '-', amount),
        token_amount: eb('token_amount', '-', tokenAmount),
      }))
      .where('holder', '=', hold.holder)
      .where('user_id', '=', job.user_id)
      .where('token_id', '=', job.token_id)
      .where('amount', '>=', amount)
      .where('token_amount', '>=', tokenAmount)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) return false;
    await tx.kysely
      .updateTable('users')
      .set((eb) => ({ held_quota: eb('held_quota', '-', amount), quota: eb('quota', '-', amount) }))
      .where('id', '=', job.user_id)
      .execute();
    if (tokenAmount > 0) {
      await tx.kysely
        .updateTable('tokens')
        .set((eb) => ({
          held_quota: eb('held_quota', '-', amount),
          ...(job.unlimited_token ? {} : { remain_quota: eb('remain_quota', '-', amount) }),
        }))
        .where('id', '=', job.token_id)
        .execute();
    }
    await countIntoBudget(tx, job, amount);
    await tx.kysely.insertInto('video_jobs').values(job).execute();
    return true;
  });
}

/**
 * Settles a completed job once: the move `charged → settled` (with `changes`), then what it did not
 * cost given back, the cost counted as used (user, key, channel) and its consumption log written,
 * all in one transaction. False for every caller but the one that moved it.
 */
export function settleChargedVideoJob(
  db: Sql,
  job: VideoJobRow,
  changes: Updateable<VideoJobsTable>,
  cost: number,
  log: NewLogRow | undefined,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    if (!(await moveBilling(tx, job.id, { ...changes, quota: cost, billing: 'settled' }))) return false;
    await giveBack(tx, job, job.quota - cost);
    await tx.kysely
      .updateTable('users')
      .set((eb) => ({ used_quota: eb('used_quota', '+', cost), request_count: eb('request_count', '+', 1) }))
      .where('id', '=', job.user_id)
      .execute();
    await tx.kysely
      .updateTable('tokens')
      .set((eb) => ({ used_quota: eb('used_quota', '+', cost) }))
      .where('id', '=', job.token_id)
      .execute();
    await tx.kysely
      .updateTable('channels')
      .set((eb) => ({ used_quota: eb('used_quota', '+', cost) }))
      .where('id', '=', job.channel_id)
      .execute();
    if (log) await insertLogRow(tx, { ...log, summarized: true });
    return true;
  });
}

/** Gives a failed or expired job's charge back whole, once: the move `charged → refunded` guards it. */
export function refundChargedVideoJob(
  db: Sql,
  job: VideoJobRow,
  changes: Updateable<VideoJobsTable>,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    if (!(await moveBilling(tx, job.id, { ...changes, quota: 0, billing: 'refunded' }))) return false;
    await giveBack(tx, job, job.quota);
    return true;
  });
}

async function moveBilling(tx: Sql, id: string, changes: Updateable<VideoJobsTable>): Promise<boolean> {
  const moved = await tx.kysely
    .updateTable('video_jobs')
    .set(changes)
    .where('id', '=', id)
    .where('billing', '=', 'charged')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Quota back to the user, the limited key, and the budget period the job was charged in (if still running). */
async function giveBack(tx: Sql, job: VideoJobRow, amount: number): Promise<void> {
  if (amount <= 0) return;
  await tx.kysely
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', job.user_id)
    .execute();
  if (!job.unlimited_token) {
    await tx.kysely
      .updateTable('tokens')
      .set((eb) => ({ remain_quota: eb('remain_quota', '+', amount) }))
      .where('id', '=', job.token_id)
      .execute();
  }
  await countIntoBudget(tx, job, -amount);
}

/**
 * Adds `amount` to what the key's budget period spent (the period the job was made in; a new period
 * starts from the charge, and a give-back after the period ended changes nothing).
 */
async function countIntoBudget(tx: Sql, job: VideoJobRow, amount: number): Promise<void> {
  const start = budgetPeriodStart(job.budget_period, job.created_at);
  if (start === undefined || amount === 0) return;
  const query = tx.kysely
    .updateTable('tokens')
    .where('id', '=', job.token_id)
    .where('budget_period', '=', job.budget_period);
  if (amount > 0) {
    await query
      .set({
        budget_used: sql`CASE WHEN budget_start = ${start} THEN COALESCE(budget_used, 0) + ${amount} ELSE ${amount} END`,
        budget_start: start,
      })
      .execute();
  } else {
    await query
      .set({
        budget_used: sql`CASE WHEN COALESCE(budget_used, 0) > ${-amount} THEN budget_used - ${-amount} ELSE 0 END`,
      })
      .where('budget_start', '=', start)
      .execute();
  }
}
