import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { Billing, type Payer, type Reservation, SettlementBacklogFull } from '../../src/domain/billing';
import { HolderLease } from '../../src/domain/billing/holder-lease';
import { OptionsStore } from '../../src/domain/options';
import { createTestDatabase, type TestDatabase } from '../databases';
import { type Script, ScriptedLedger, scriptedSql } from './scripted-ledger';

const payer: Payer = { userId: 1, username: 'ann', tokenId: 10, tokenName: 'key', unlimitedToken: true };
const usage = { prompt_tokens: 10, completion_tokens: 20 };

const reserved = (answer: Reservation | string): Reservation => {
  if (typeof answer === 'string') throw new Error(`refused: ${answer}`);
  return answer;
};

describe('Billing on a real SQLite ledger: a call from hold to settlement', () => {
  let database: TestDatabase;
  let db: Db;
  let billing: Billing;
  let options: OptionsStore;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    db = openDatabase(database.target);
    await migrateToLatest(db);
    await sql`INSERT INTO users (username, password, display_name, role, status, quota, "group")
      VALUES ('ann', 'x', 'ann', 1, 1, 1000000, 'default')`.execute(db.kysely);
    await sql`INSERT INTO tokens (user_id, key, status, name, created_time, accessed_time, expired_time,
      remain_quota, unlimited_quota, used_quota) VALUES (1, ${'k'.repeat(48)}, 1, 'key', 0, 0, -1, 0, 1, 0)`.execute(
      db.kysely,
    );
    options = new OptionsStore(db);
    await options.reload();
    billing = new Billing({
      ledger: db.ledger,
      options,
      settlementBacklog: 10,
      databaseWaitMs: 5_000,
      leaseMs: 60_000,
    });
    await billing.start();
  });
  afterAll(async () => {
    await billing?.close(1_000);
    await db?.close();
    await database?.drop();
  });

  it('charges the price of the usage, logs it in the same transaction, and gives every hold back', async () => {
    const price = billing.price('gpt-4o', 'default', 1);
    const estimate = billing.estimate(price, 100);
    const call = reserved(await billing.reserve(payer, estimate, billing.ceiling(price, 100)));
    expect(billing.heldCredit().quota).toBeGreaterThan(0);
    const charged = await billing.settle({
      reservation: call,
      price,
      model: 'gpt-4o',
      channelId: 1,
      usage,
      requestId: 'r1',
      isStream: false,
      elapsedMs: 12,
    });
    expect(charged).toBe(Math.ceil((10 + 20 * price.completionRatio) * price.ratio));
    await billing.settled();
    const user = await db.kysely
      .selectFrom('users')
      .select(['quota', 'used_quota', 'held_quota'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ quota: 1_000_000 - charged, used_quota: charged, held_quota: 0 });
    const logs = await db.kysely.selectFrom('logs').select(['quota', 'request_id']).execute();
    expect(logs).toEqual([{ quota: charged, request_id: 'r1' }]);
    expect(billing.pending()).toEqual({ calls: 0, quota: 0 });
    expect(() =>
      billing.settle({
        reservation: call,
        price,
        model: 'gpt-4o',
        channelId: 1,
        usage,
        requestId: 'r1',
        isStream: false,
        elapsedMs: 1,
      }),
    ).toThrow(/once/);
  });

  it('prices each model, group and channel type apart, kept until the ratios change', async () => {
    await options.update('GroupRatio', JSON.stringify({ default: 1, vip: 2 }));
    const base = billing.price('gpt-4o', 'default', 1);
    expect(billing.price('gpt-4o', 'default', 1)).toBe(base);
    expect(billing.price('gpt-4o', 'vip', 1).ratio).toBe(base.ratio * 2);
    expect(billing.price('gpt-4o-mini', 'default', 1).modelRatio).not.toBe(base.modelRatio);
    // Kept apart by channel type too (some ratios depend on it): not one entry for both.
    expect(billing.price('claude-3-5-sonnet-20241022', 'default', 14)).not.toBe(
      billing.price('claude-3-5-sonnet-20241022', 'default', 1),
    );
    await options.update('GroupRatio', JSON.stringify({ default: 3, vip: 2 }));
    expect(billing.price('gpt-4o', 'default', 1).ratio).toBe(base.ratio * 3);
  });

  it('estimates (PreConsumedQuota + max_tokens) × ratio, and a ceiling of 4,096 completion tokens without max_tokens', () => {
    const price = billing.price('gpt-4o', 'default', 1);
    expect(billing.estimate(price, -5)).toBe(billing.estimate(price, 0));
    expect(billing.ceiling(price, 0)).toBe(billing.ceiling(price, 4_096));
    expect(billing.ceiling(price, 10)).toBeLessThan(billing.ceiling(price, 0));
  });
});

describe('Billing on a database that fails (a scripted ledger)', () => {
  const price = {
    modelRatio: 1,
    groupRatio: 1,
    completionRatio: 1,
    cacheReadRatio: 1,
    cacheWriteRatio: 1,
    imageInputRatio: 1,
    ratio: 1,
    text: { perToken: 'ratio 1', perUnit: 'ratio 1' },
    facts: { perToken: '', perUnit: '' },
  };
  const record = (reservation: Reservation) => ({
    reservation,
    price,
    model: 'm',
    channelId: 1,
    usage,
    fixedQuota: 30,
    requestId: 'r',
    isStream: false,
    elapsedMs: 1,
  });

  function scriptedBilling(script: Script, settlementBacklog = 10) {
    const failures: unknown[] = [];
    const ledger = new ScriptedLedger({ readUser: () => ({ quota: 1_000, held_quota: 0 }), ...script });
    const billing = new Billing({
      ledger,
      // Options as they are by default (the scripted database has no rows).
      options: new OptionsStore(scriptedSql('mysql', {}).sql),
      settlementBacklog,
      databaseWaitMs: 5_000,
      leaseMs: 60_000,
      onWriteFailed: (error) => failures.push(error),
    });
    return { billing, ledger, failures };
  }

  it('a batch whose commit answer was lost is retried as a retry: found settled, it is not charged again', async () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    // The first attempt's answer is lost (here, an error on its way); the holder row then says batch 1 landed.
    const { billing, ledger, failures } = scriptedBilling({
      chargeChannel: [lost],
      readSettled: [{ settled_seq: 1 }],
    });
    const call = reserved(await billing.reserve(payer, 30, 30));
    expect(await billing.settle(record(call))).toBe(30);
    expect(failures).toEqual([lost]);
    const settling = ledger.statements().filter((statements) => !statements.includes('renewHolder'));
    expect(settling.map((statements) => statements[0])).toEqual(['markSettled', 'readSettled']);
  });

  it('refuses new calls while SETTLEMENT_BACKLOG settled calls wait to be written, and says what is left at shutdown', async () => {
    let databaseUp = false;
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { billing, failures } = scriptedBilling({ markSettled: () => (databaseUp ? 1 : down) }, 1);
    const call = reserved(await billing.reserve(payer, 30, 30));
    const written = billing.settle(record(call));
    await expect(billing.reserve(payer, 30, 30)).rejects.toBeInstanceOf(SettlementBacklogFull);
    expect(await billing.close(100)).toEqual({ calls: 1, quota: 30 });
    expect(failures[0]).toBe(down);
    // Once the database answers, the retried batch lands and calls are admitted again.
    databaseUp = true;
    expect(await written).toBe(30);
    reserved(await billing.reserve(payer, 30, 30));
  });
});

describe('HolderLease', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renews every third of the lease and sweeps; a lost lease forgets what it held and takes a new name', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const ledger = new ScriptedLedger({ renewHolder: [1, 0], expiredHolders: () => [] });
    let lost = 0;
    const errors: unknown[] = [];
    let now = 5_000;
    const lease = new HolderLease({
      ledger,
      leaseMs: 30_000,
      onLost: () => (lost += 1),
      onError: (error) => errors.push(error),
      clock: () => now,
    });
    await lease.start();
    const first = lease.id;
    expect(ledger.transactions[0]?.steps).toEqual([{ statement: 'registerHolder', params: [first, 35_000] }]);
    now = 15_000;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lease.id).toBe(first);
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(() => expect(lease.id).not.toBe(first));
    expect(lost).toBe(1);
    expect(ledger.statements().map((statements) => statements[0])).toEqual([
      'registerHolder',
      'expiredHolders',
      'renewHolder',
      'expiredHolders',
      'renewHolder',
      'registerHolder',
      'expiredHolders',
    ]);
    await lease.stop();
    expect(ledger.transactions.at(-1)?.steps).toEqual([{ statement: 'renewHolder', params: [0, lease.id] }]);
    expect(errors).toEqual([]);
  });

  it('a renewal answered after the expiry it set is made again at once; the sweep passes over its own lease', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = 5_000;
    const renewals: unknown[][] = [];
    const ledger = new ScriptedLedger({
      renewHolder: (params) => {
        renewals.push(params);
        // The first renewal of the tick is answered once the lease it asked for has run out.
        if (renewals.length === 1) now += 4_000;
        return 1;
      },
    });
    const lost: number[] = [];
    const lease = new HolderLease({
      ledger,
      leaseMs: 3_000,
      onLost: () => lost.push(now),
      onError: (error) => {
        throw error;
      },
      clock: () => now,
    });
    await lease.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renewals).toEqual([
      [8_000, lease.id],
      [12_000, lease.id],
    ]);
    const sweeps = ledger.transactions.map((transaction) => transaction.steps[0]);
    expect(sweeps.filter((step) => step?.statement === 'expiredHolders')).toEqual([
      { statement: 'expiredHolders', params: [5_000, lease.id] },
      { statement: 'expiredHolders', params: [9_000, lease.id] },
    ]);
    expect(lost).toEqual([]);
    await lease.stop();
  });

  it('tells onError of a renewal the database refused, and goes on at the next tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const down = new Error('connect ECONNREFUSED');
    const ledger = new ScriptedLedger({ renewHolder: [down, 1] });
    const errors: unknown[] = [];
    const lease = new HolderLease({
      ledger,
      leaseMs: 3_000,
      onLost: () => {},
      onError: (error) => errors.push(error),
    });
    await lease.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toEqual([down]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ledger.statements().filter((statements) => statements[0] === 'renewHolder')).toHaveLength(2);
    await lease.stop();
  });
});
