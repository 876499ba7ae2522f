import { inTransaction, type Sql } from '../connect';
import { Precompiled } from '../precompiled';
import { addLogSummaries, summarizeLogs } from '../repos/log-summaries';
import type { Debit, DebitResult, QuotaLedger } from './ledger';
import { type Settlement, totalSettlements } from './settlements';

// The ledger's statements run on every relayed call, so their SQL is built once per dialect.

const takeUser = new Precompiled(2, (db, userId: number, amount: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '-', amount) }))
    .where('id', '=', userId)
    .where('quota', '>=', amount),
);

const takeToken = new Precompiled(3, (db, tokenId: number, amount: number, now: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({
      remain_quota: eb('remain_quota', '-', amount),
      used_quota: eb('used_quota', '+', amount),
      accessed_time: now,
    }))
    .where('id', '=', tokenId)
    .where('remain_quota', '>=', amount),
);

const giveUser = new Precompiled(2, (db, userId: number, amount: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', amount) }))
    .where('id', '=', userId),
);

const giveToken = new Precompiled(2, (db, tokenId: number, amount: number) =>
  db
    .updateTable('tokens')
    .set((eb) => ({
      remain_quota: eb('remain_quota', '+', amount),
      used_quota: eb('used_quota', '-', amount),
    }))
    .where('id', '=', tokenId),
);

const settleUserQuery = new Precompiled(
  4,
  (db, userId: number, delta: number, spent: number, calls: number) =>
    db
      .updateTable('users')
      .set((eb) => ({
        quota: eb('quota', '-', delta),
        used_quota: eb('used_quota', '+', spent),
        request_count: eb('request_count', '+', calls),
      }))
      .where('id', '=', userId),
);

const settleTokenQuery = new Precompiled(
  4,
  (db, tokenId: number, remainDelta: number, usedDelta: number, now: number) =>
    db
      .updateTable('tokens')
      .set((eb) => ({
        remain_quota: eb('remain_quota', '-', remainDelta),
        used_quota: eb('used_quota', '+', usedDelta),
        accessed_time: now,
      }))
      .where('id', '=', tokenId),
);

const settleChannelQuery = new Precompiled(
  3,
  (db, channelId: number, spent: number, responseTimeMs: number) =>
    db
      .updateTable('channels')
      .set((eb) => ({ used_quota: eb('used_quota', '+', spent), response_time: responseTimeMs }))
      .where('id', '=', channelId),
);

const changedOne = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0) === 1;

const LOG_ROWS_PER_INSERT = 200;

async function debitOne(tx: Sql, debit: Debit, now: number): Promise<DebitResult> {
  const { userId, tokenId, amount } = debit;
  if (!changedOne(await takeUser.run(tx, userId, amount))) return 'user-quota';
  if (!debit.unlimitedToken && !changedOne(await takeToken.run(tx, tokenId, amount, now))) {
    await giveUser.run(tx, userId, amount);
    return 'token-quota';
  }
  return 'ok';
}

/** The ledger through Kysely: PostgreSQL and MySQL (a network round trip per statement anyway). */
export class KyselyLedger implements QuotaLedger {
  constructor(private readonly db: Sql) {}

  debit(batch: Debit[], now: number): Promise<DebitResult[]> {
    return inTransaction(this.db, async (tx) => {
      const results: DebitResult[] = [];
      for (const debit of batch) results.push(await debitOne(tx, debit, now));
      return results;
    });
  }

  credit(batch: Debit[]): Promise<void> {
    return inTransaction(this.db, async (tx) => {
      for (const { userId, tokenId, unlimitedToken, amount } of batch) {
        if (amount <= 0) continue;
        await giveUser.run(tx, userId, amount);
        if (!unlimitedToken) await giveToken.run(tx, tokenId, amount);
      }
    });
  }

  settle(batch: Settlement[], now: number): Promise<void> {
    const totals = totalSettlements(batch);
    return inTransaction(this.db, async (tx) => {
      for (const [userId, { delta, spent, calls }] of totals.users)
        await settleUserQuery.run(tx, userId, delta, spent, calls);
      for (const [tokenId, { remainDelta, usedDelta }] of totals.tokens)
        await settleTokenQuery.run(tx, tokenId, remainDelta, usedDelta, now);
      for (const [channelId, { spent, responseTimeMs }] of totals.channels)
        await settleChannelQuery.run(tx, channelId, spent, responseTimeMs);
      for (let start = 0; start < totals.logs.length; start += LOG_ROWS_PER_INSERT) {
        await tx.kysely
          .insertInto('logs')
          .values(totals.logs.slice(start, start + LOG_ROWS_PER_INSERT))
          .execute();
      }
      if (totals.logs.length > 0) await addLogSummaries(tx, summarizeLogs(totals.logs));
    });
  }
}
