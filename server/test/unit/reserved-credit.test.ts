import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database';
import type { QuotaLedger } from '../../src/db/ledger/ledger';
import { migrateToLatest } from '../../src/db/migrate';
import { HolderLease } from '../../src/domain/billing/holder-lease';
import { type Payer, type Reservation, Reservations } from '../../src/domain/billing/reservations';
import { ReservedCredit } from '../../src/domain/billing/reserved-credit';
import { Settlements } from '../../src/domain/billing/settlements';
import { OptionsStore } from '../../src/domain/options';
import { createTestDatabase, type TestDatabase } from '../databases';

/** A clock the test moves by hand (milliseconds). */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const payer = (userId: number, tokenId: number): Payer => ({
  userId,
  username: `user${userId}`,
  tokenId,
  tokenName: 'key',
  unlimitedToken: true,
});

describe('ReservedCredit: credit held ahead, spent from memory', () => {
  const alice = { userId: 1, tokenId: 10, unlimitedToken: true };

  it('spends what was added, no more, under the holder it was held by', () => {
    const credit = new ReservedCredit();
    expect(credit.take(alice, 1)).toBeUndefined();
    credit.add(alice, 'h1', 300);
    expect(credit.take(alice, 200)).toMatchObject({ holder: 'h1', amount: 100 });
    expect(credit.take(alice, 200)).toBeUndefined();
    expect(credit.take(alice, 100)?.holder).toBe('h1');
    expect(credit.held()).toEqual({ payers: 1, quota: 0 });
  });

  it('keeps the credit of each kind of key apart', () => {
    const credit = new ReservedCredit();
    credit.add(alice, 'h1', 100);
    expect(credit.take({ ...alice, unlimitedToken: false }, 1)).toBeUndefined();
    expect(credit.take({ ...alice, budgetPeriod: 'daily' }, 1)).toBeUndefined();
    expect(credit.take(alice, 1)?.holder).toBe('h1');
  });

  it('gives back credit idle for the given time by its clock, each spend starting the time over', () => {
    const clock = manualClock();
    const credit = new ReservedCredit(clock.now);
    credit.add(alice, 'h1', 300);
    clock.advance(1_500);
    credit.take(alice, 100);
    clock.advance(1_999);
    expect(credit.takeIdle(2_000)).toEqual([]);
    clock.advance(1);
    expect(credit.takeIdle(2_000)).toEqual([
      { holder: 'h1', ...alice, budgetPeriod: undefined, amount: 200 },
    ]);
    expect(credit.size).toBe(0);
  });

  it("gives back one user's or one key's credit, and forgets spent-out credit without giving back nothing", () => {
    const credit = new ReservedCredit();
    credit.add(alice, 'h1', 100);
    credit.add({ ...alice, tokenId: 11 }, 'h1', 50);
    credit.add({ userId: 2, tokenId: 20, unlimitedToken: false }, 'h1', 70);
    expect(credit.takeToken(11).map((hold) => hold.amount)).toEqual([50]);
    credit.take(alice, 100);
    expect(credit.takeUser(1)).toEqual([]);
    expect(credit.held()).toEqual({ payers: 1, quota: 70 });
    expect(credit.takeUser(2).map((hold) => hold.amount)).toEqual([70]);
  });

  it("keeps credit of an older holder aside when a newer one's arrives, and gives it back with the next return", () => {
    const credit = new ReservedCredit();
    credit.add(alice, 'old', 100);
    credit.add(alice, 'new', 40);
    expect(credit.held()).toEqual({ payers: 1, quota: 140 });
    expect(credit.take(alice, 50)).toBeUndefined();
    expect(credit.take(alice, 40)?.holder).toBe('new');
    expect(credit.takeToken(999)).toEqual([expect.objectContaining({ holder: 'old', amount: 100 })]);
    expect(credit.size).toBe(1);
    credit.clear();
    expect(credit.size).toBe(0);
  });
});

describe('Reservations: holding ahead, spending from memory, giving back (a real ledger, a clock the test moves)', () => {
  let database: TestDatabase;
  let db: Db;
  const leases: HolderLease[] = [];
  const failures: unknown[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    db = openDatabase(database.target);
    await migrateToLatest(db);
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const lease of leases.splice(0)) await lease.stop();
    expect(failures).toEqual([]);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  let nextId = 0;
  async function account(quota: number): Promise<Payer> {
    nextId += 1;
    const name = `u${nextId}`;
    const user = await sql<{ id: number }>`
      INSERT INTO users (username, password, display_name, role, status, quota, "group")
      VALUES (${name}, 'x', ${name}, 1, 1, ${quota}, 'default') RETURNING id`.execute(db.kysely);
    const userId = Number(user.rows[0]?.id);
    const token = await sql<{ id: number }>`
      INSERT INTO tokens (user_id, key, status, name, created_time, accessed_time, expired_time,
        remain_quota, unlimited_quota, used_quota)
      VALUES (${userId}, ${name.padEnd(48, 'k')}, 1, 'key', 0, 0, -1, 0, 1, 0) RETURNING id`.execute(
      db.kysely,
    );
    return payer(userId, Number(token.rows[0]?.id));
  }

  async function held(userId: number): Promise<number> {
    const row = await db.kysely
      .selectFrom('users')
      .select('held_quota')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.held_quota);
  }

  /** One process's billing parts on the shared ledger: its lease, credit (on `clock`), settlements, reservations. */
  async function process(
    clock = manualClock(),
    more: {
      askForCredit?: (userId: number) => void;
      mayUseCredit?: () => boolean;
      /** Holds go through this ledger (the same database, held up by the test). */
      holdLedger?: QuotaLedger;
    } = {},
  ) {
    const credit = new ReservedCredit(clock.now);
    const onWriteFailed = (error: unknown) => failures.push(error);
    const lease = new HolderLease({
      ledger: db.ledger,
      leaseMs: 60_000,
      onLost: () => credit.clear(),
      onError: onWriteFailed,
    });
    await lease.start();
    leases.push(lease);
    const settlements = new Settlements({
      ledger: db.ledger,
      lease,
      options: new OptionsStore(db),
      onWriteFailed,
    });
    const reservations = new Reservations({
      ledger: more.holdLedger ?? db.ledger,
      lease,
      credit,
      onWriteFailed,
      waitMs: 5_000,
      giveBack: (holds) => settlements.giveBack(holds),
      askForCredit: more.askForCredit,
      mayUseCredit: more.mayUseCredit ?? (() => true),
    });
    return { clock, credit, lease, settlements, reservations };
  }

  const reserved = (answer: Reservation | string): Reservation => {
    if (typeof answer === 'string') throw new Error(`refused: ${answer}`);
    return answer;
  };

  /** The real ledger, whose holds after the first wait until the test opens the gate. */
  function gatedHolds() {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let holds = 0;
    const ledger: QuotaLedger = Object.assign(Object.create(db.ledger), {
      hold: async (...args: Parameters<QuotaLedger['hold']>) => {
        holds += 1;
        if (holds > 1) await gate;
        return db.ledger.hold(...args);
      },
    });
    return { ledger, open, holds: () => holds };
  }

  /** Reserves until `calls` calls were reserved or one waits for the database (it is answered). */
  async function reserveFromMemory(reservations: Reservations, who: Payer, calls: number) {
    const answered: Reservation[] = [];
    for (let index = 0; index < calls; index++) {
      const answer = reservations.reserve(who, 100, 200);
      // A reservation from memory is answered at once; one held in the database is a promise.
      if (answer instanceof Promise) return { answered, waiting: answer.then(reserved) };
      answered.push(reserved(answer));
    }
    // A turn for what the calls queued (credit held again in the background) to reach the ledger.
    await new Promise((resolve) => setImmediate(resolve));
    return { answered, waiting: undefined };
  }

  it('a rich payer holds 63 calls ahead; the next calls reserve from memory; idle credit goes back on the timer', async () => {
    const alice = await account(1_000_000);
    const { clock, credit, reservations, settlements } = await process();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const first = reserved(await reservations.reserve(alice, 100, 200));
    expect(first.limit).toBeUndefined();
    expect(await held(alice.userId)).toBe(6_400);
    expect(credit.held()).toEqual({ payers: 1, quota: 6_300 });
    // From memory: the database is not asked.
    reserved(await reservations.reserve(alice, 100, 200));
    expect(await held(alice.userId)).toBe(6_400);
    expect(credit.held().quota).toBe(6_200);

    // The return timer looks every second; the credit goes back once idle 2 s by the clock.
    clock.advance(1_999);
    vi.advanceTimersByTime(1_000);
    await settlements.drained();
    expect(credit.held().quota).toBe(6_200);
    clock.advance(1);
    vi.advanceTimersByTime(1_000);
    await settlements.drained();
    expect(credit.size).toBe(0);
    expect(await held(alice.userId)).toBe(200);
    // Nothing left to give back: the timer stops.
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an account that is not rich holds no more than the call, and its call is limited to what it can spend', async () => {
    const bob = await account(1_000);
    const { credit, reservations } = await process();
    const call = reserved(await reservations.reserve(bob, 100, 5_000));
    expect(await held(bob.userId)).toBe(100);
    expect(credit.size).toBe(0);
    expect(call.limit).toBe(1_000);
  });

  it('holds no credit ahead while it may not (the change bus is down)', async () => {
    const carol = await account(1_000_000);
    const { credit, reservations } = await process(manualClock(), { mayUseCredit: () => false });
    reserved(await reservations.reserve(carol, 100, 200));
    reserved(await reservations.reserve(carol, 100, 200));
    expect(await held(carol.userId)).toBe(200);
    expect(credit.size).toBe(0);
  });

  it("a refused hold first gives back the process's own credit for the user, then holds again", async () => {
    const dave = await account(10_000);
    const { credit, reservations } = await process();
    reserved(await reservations.reserve(dave, 100, 100));
    // (10,000 − 100 − 400) / 2 = 4,750 held ahead.
    expect(credit.held().quota).toBe(4_750);
    const big = reserved(await reservations.reserve(dave, 6_000, 6_000));
    expect(big.amount).toBe(6_000);
    expect(credit.size).toBe(0);
    expect(await held(dave.userId)).toBe(6_100);
  });

  it("a refused hold asks the other processes for the user's credit, and holds once they gave it back", async () => {
    const erin = await account(10_000);
    const other = await process();
    const asked: number[] = [];
    const { reservations } = await process(manualClock(), {
      askForCredit: (userId) => {
        asked.push(userId);
        void other.reservations.returnCredit({ userId });
      },
    });
    reserved(await other.reservations.reserve(erin, 100, 100));
    expect(other.credit.held().quota).toBe(4_750);
    reserved(await reservations.reserve(erin, 6_000, 6_000));
    expect(asked).toEqual([erin.userId]);
    expect(await held(erin.userId)).toBe(6_100);
  });

  it("refuses when neither its own credit nor the others' covers the call", async () => {
    const frank = await account(1_000);
    const { reservations } = await process(manualClock(), { askForCredit: () => {} });
    expect(await reservations.reserve(frank, 2_000, 2_000)).toBe('user-quota');
    expect(await held(frank.userId)).toBe(0);
  });

  it("an administrator's edit (or another process) takes back the credit of a user or a key at once", async () => {
    const gina = await account(1_000_000);
    const { credit, reservations, settlements } = await process();
    reserved(await reservations.reserve(gina, 100, 200));
    await reservations.returnCredit({ tokenId: gina.tokenId });
    await settlements.drained();
    expect(credit.size).toBe(0);
    expect(await held(gina.userId)).toBe(100);
  });

  it('a lost lease forgets the credit held under it and holds again under a new name', async () => {
    const hank = await account(1_000_000);
    const { credit, lease, reservations } = await process();
    reserved(await reservations.reserve(hank, 100, 200));
    const oldName = lease.id;
    // Another process's sweep found the lease run out: the holder is released and its holds given back.
    await db.kysely
      .updateTable('quota_holders')
      .set({ expires_at: 0 })
      .where('holder', '=', oldName)
      .execute();
    expect(await db.ledger.sweep(Date.now(), 'another-process')).toBe(1);
    expect(await held(hank.userId)).toBe(0);
    // Its calls spend the credit still in memory; the next one goes to the database.
    expect(credit.take(hank, 6_300)?.holder).toBe(oldName);
    const after = reserved(await reservations.reserve(hank, 100, 200));
    expect(lease.id).not.toBe(oldName);
    expect(after.holder).toBe(lease.id);
    expect(credit.held()).toEqual({ payers: 1, quota: 6_300 });
    expect(await held(hank.userId)).toBe(6_400);
  });

  it('extends a call in progress while the account can pay, and refuses once it cannot', async () => {
    const ivy = await account(1_000);
    const { reservations } = await process(manualClock(), { mayUseCredit: () => false });
    const call = reserved(await reservations.reserve(ivy, 100, 100));
    expect(await reservations.extend(call, 0)).toBe(true);
    expect(await reservations.extend(call, 800)).toBe(true);
    expect(call.amount).toBe(900);
    expect(await reservations.extend(call, 101)).toBe(false);
    expect(await held(ivy.userId)).toBe(900);
  });

  it("holds a rich payer's credit again before it runs out, while its calls go on from memory", async () => {
    const kim = await account(10_000_000);
    const holds = gatedHolds();
    const { credit, reservations } = await process(manualClock(), { holdLedger: holds.ledger });
    reserved(await reservations.reserve(kim, 100, 200));
    expect(credit.held().quota).toBe(6_300);
    // Down to 16 calls' worth (after 48 more), more is held in the background; the calls go on.
    const before = await reserveFromMemory(reservations, kim, 63);
    expect(before.answered).toHaveLength(63);
    expect(before.waiting).toBeUndefined();
    expect(holds.holds()).toBe(2);
    expect(credit.held().quota).toBe(0);
    holds.open();
    await vi.waitFor(() => expect(credit.held().quota).toBe(6_400));
    const after = await reserveFromMemory(reservations, kim, 64);
    expect(after.waiting).toBeUndefined();
    // What the database holds is the calls' and the credit's, no more.
    expect(await held(kim.userId)).toBe(128 * 100 + credit.held().quota);
  });

  /** A rich payer 49 calls in: its credit is down to 15 calls' worth, and more is being held (gated). */
  async function backgroundHoldWaiting() {
    const who = await account(10_000_000);
    const holds = gatedHolds();
    const parts = await process(manualClock(), { holdLedger: holds.ledger });
    reserved(await parts.reservations.reserve(who, 100, 200));
    await reserveFromMemory(parts.reservations, who, 48);
    expect(holds.holds()).toBe(2);
    return { who, holds, ...parts };
  }

  it('a background hold that lands after the credit was taken back goes back too', async () => {
    const { who: lee, holds, credit, reservations, settlements } = await backgroundHoldWaiting();
    // Another process asks for the user's credit while the background hold waits.
    await reservations.returnCredit({ userId: lee.userId });
    holds.open();
    await vi.waitFor(async () => {
      await settlements.drained();
      expect(await held(lee.userId)).toBe(49 * 100);
    });
    expect(credit.size).toBe(0);
  });

  it('giving all credit back (shutdown) waits for a background hold and gives it back as well', async () => {
    const { who: max, holds, credit, reservations, settlements } = await backgroundHoldWaiting();
    reservations.stopCreditReturns();
    let returned = false;
    const returning = reservations.returnIdleCredit(0).then(() => {
      returned = true;
    });
    await settlements.drained();
    await new Promise((resolve) => setImmediate(resolve));
    expect(returned).toBe(false);
    holds.open();
    await returning;
    await settlements.drained();
    expect(credit.size).toBe(0);
    expect(await held(max.userId)).toBe(49 * 100);
    // Calls still served while shutting down hold as before, but nothing is held in the background.
    reserved(await reservations.reserve(max, 100, 200));
    expect(holds.holds()).toBe(3);
    await reserveFromMemory(reservations, max, 63);
    expect(holds.holds()).toBe(3);
  });

  it('a refund gives the whole hold back, once', async () => {
    const jay = await account(1_000);
    const { reservations } = await process(manualClock(), { mayUseCredit: () => false });
    const call = reserved(await reservations.reserve(jay, 100, 100));
    await reservations.refund(call);
    await reservations.refund(call);
    expect(await held(jay.userId)).toBe(0);
  });
});
