import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { KyselyLedger } from '../src/db/ledger/kysely-ledger';
import { LeaseLostError, type Settlement } from '../src/db/ledger/ledger';
import { migrateToLatest } from '../src/db/migrate';
import { createPgScripts, expectingRows, isWrongRowCount, type PgScripts } from '../src/db/pg-script';
import { foldLogSummaries } from '../src/db/repos/log-summaries/fold';
import type { NewLogRow } from '../src/db/schema';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';

// The ledger's one-round-trip transactions exist on PostgreSQL only; the other runs have nothing to test.
describe.runIf(TEST_DIALECT === 'postgres')('the ledger on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Db;
  /** Statements run outside pipelined transactions (DEBUG_SQL's hook); each of those: round trips, outcome. */
  const stepByStep: string[] = [];
  /** Each pipelined transaction: its round trips, its outcome, and whether its last trip carried the COMMIT. */
  const trips: Array<{ sends: number; committed: boolean | undefined; commitInTrip: boolean }> = [];
  let inTrip = false;
  let ledger: KyselyLedger;
  let holder = 0;
  let channelId = 0;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = openDatabase(database.target, {
      logSql: ({ sql: text }) => {
        if (!inTrip) stepByStep.push(text);
      },
    });
    await migrateToLatest(db);
    const scripts = db.pgScripts as PgScripts;
    const watched: PgScripts = {
      transaction: async (work) => {
        inTrip = true;
        let sends = 0;
        let commitInTrip = false;
        try {
          const committed = await scripts.transaction((send) =>
            work((statements, options) => {
              sends += 1;
              commitInTrip = options?.commit === true;
              return send(statements, options);
            }),
          );
          trips.push({ sends, committed, commitInTrip });
          return committed;
        } finally {
          inTrip = false;
        }
      },
    };
    ledger = new KyselyLedger(db, watched);
    const channel = await sql<{ id: number }>`
      INSERT INTO channels (type, key, status, name, created_time, test_time, response_time, balance,
        balance_updated_time, models, "group", used_quota, config)
      VALUES (1, 'sk-upstream', 1, 'upstream', 0, 0, 0, 0, 0, 'gpt-4o', 'default', 0, '{}') RETURNING id`.execute(
      db.kysely,
    );
    channelId = Number(channel.rows[0]?.id);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  async function account(quota: number): Promise<{ userId: number; tokenId: number }> {
    const name = `user${Math.random().toString(36).slice(2, 10)}`;
    const user = await sql<{ id: number }>`
      INSERT INTO users (username, password, display_name, role, status, quota, "group")
      VALUES (${name}, 'x', ${name}, 1, 1, ${quota}, 'default') RETURNING id`.execute(db.kysely);
    const userId = Number(user.rows[0]?.id);
    const token = await sql<{ id: number }>`
      INSERT INTO tokens (user_id, key, status, name, created_time, accessed_time, expired_time,
        remain_quota, unlimited_quota, used_quota)
      VALUES (${userId}, ${name.padEnd(48, 'k')}, 1, 'key', 0, 0, -1, ${quota}, false, 0) RETURNING id`.execute(
      db.kysely,
    );
    return { userId, tokenId: Number(token.rows[0]?.id) };
  }

  async function balances(userId: number, tokenId: number) {
    const user = await db.kysely
      .selectFrom('users')
      .select(['quota', 'used_quota', 'held_quota'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const token = await db.kysely
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota', 'held_quota'])
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow();
    return { user, token };
  }

  const log = (userId: number, quota: number, content: string): NewLogRow => ({
    user_id: userId,
    created_at: Math.floor(Date.now() / 1000),
    type: 2,
    content,
    username: 'someone',
    token_name: "O'Brien's key \\ -- $1",
    model_name: 'gpt-4o',
    quota,
    prompt_tokens: 10,
    completion_tokens: 20,
    channel_id: 1,
    request_id: 'req-1',
    elapsed_time: 12,
    is_stream: false,
    system_prompt_reset: false,
    facts: JSON.stringify({ kind: 'consume', note: "quote ' and backslash \\ and 漢字 🚀" }),
  });

  async function heldSettlement(userId: number, tokenId: number, hold: number, cost: number) {
    const name = `holder-${++holder}`;
    await ledger.register(name, Date.now() + 60_000);
    const payer = { userId, tokenId, unlimitedToken: false };
    const [held] = await ledger.hold(
      name,
      Date.now() + 60_000,
      [{ ...payer, amount: hold, ahead: 0, richFloor: 0 }],
      0,
    );
    expect(held).toMatchObject({ ok: true, taken: hold });
    const settlement: Settlement = {
      ...payer,
      holder: name,
      amount: hold,
      channelId,
      cost,
      elapsedMs: 12,
      log: log(userId, cost, `cost ${cost}: it's \\ "quoted"; DROP TABLE logs; --`),
    };
    return { name, settlement };
  }

  it('settles a batch in one round trip, its commit in it, every value written exactly', async () => {
    const { userId, tokenId } = await account(1_000);
    const { name, settlement } = await heldSettlement(userId, tokenId, 100, 40);
    stepByStep.length = 0;
    trips.length = 0;
    expect(await ledger.settle(name, 1, [settlement], Date.now())).toEqual([40]);
    expect(trips).toEqual([{ sends: 1, committed: true, commitInTrip: true }]);
    expect(stepByStep).toEqual([]);
    expect(await balances(userId, tokenId)).toEqual({
      user: { quota: 960, used_quota: 40, held_quota: 0 },
      token: { remain_quota: 960, used_quota: 40, held_quota: 0 },
    });
    const written = await db.kysely
      .selectFrom('logs')
      .select(['content', 'token_name', 'facts', 'quota', 'summarized'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(written).toEqual({
      content: settlement.log?.content,
      token_name: settlement.log?.token_name,
      facts: settlement.log?.facts,
      quota: 40,
      // A lone log: its summaries are left to a fold after the commit.
      summarized: false,
    });
    await foldLogSummaries(db);
    const summary = await db.kysely
      .selectFrom('log_summaries')
      .select(['quota', 'log_count'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(summary).toEqual({ quota: 40, log_count: 1 });
  });

  it('rolls the trip back when a charge is not covered and settles call by call with the rows read', async () => {
    const { userId, tokenId } = await account(1_000);
    const { name, settlement } = await heldSettlement(userId, tokenId, 100, 40);
    // An administrator sets the balance to 25 while the call runs: it can pay 25 of its 40.
    await db.kysely.updateTable('users').set({ quota: 25 }).where('id', '=', userId).execute();
    stepByStep.length = 0;
    trips.length = 0;
    expect(await ledger.settle(name, 1, [settlement], Date.now())).toEqual([25]);
    // The fast settlement's trip fails on the database's check of the user's charge and is rolled
    // back; sent again without its commit, its answers show the charge not covered (rolled back);
    // the careful one reads the rows, pipelined too.
    expect(trips).toEqual([
      { sends: 1, committed: false, commitInTrip: true },
      { sends: 1, committed: false, commitInTrip: false },
      { sends: 3, committed: true, commitInTrip: true },
    ]);
    expect(stepByStep).toEqual([]);
    expect(await balances(userId, tokenId)).toMatchObject({
      user: { quota: 0, used_quota: 25, held_quota: 0 },
      token: { used_quota: 25, held_quota: 0 },
    });
    const logs = await db.kysely
      .selectFrom('logs')
      .select(['quota', 'content'])
      .where('user_id', '=', userId)
      .execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]?.quota).toBe(25);
    expect(logs[0]?.content).toContain('charged the 25 left');
  });

  it('holds in a round trip per row it reads, the changes going with the next read or the commit', async () => {
    const { userId, tokenId } = await account(1_000);
    const name = `holder-${++holder}`;
    await ledger.register(name, Date.now() + 60_000);
    stepByStep.length = 0;
    trips.length = 0;
    const payer = { userId, tokenId, unlimitedToken: false };
    const held = await ledger.hold(
      name,
      Date.now() + 60_000,
      [{ ...payer, amount: 100, ahead: 300, richFloor: 0 }],
      0,
    );
    expect(held).toEqual([{ ok: true, taken: 400, spendable: 600 }]);
    // The lease and the user's row, then the key's row, then the three changes.
    expect(trips).toEqual([{ sends: 3, committed: true, commitInTrip: true }]);
    expect(stepByStep).toEqual([]);
    expect(await balances(userId, tokenId)).toEqual({
      user: { quota: 1_000, used_quota: 0, held_quota: 400 },
      token: { remain_quota: 1_000, used_quota: 0, held_quota: 400 },
    });
    // A refusal reads the user's row and changes nothing: its commit goes after, on its own.
    trips.length = 0;
    const refused = await ledger.hold(
      name,
      Date.now() + 60_000,
      [{ ...payer, amount: 700, ahead: 0, richFloor: 0 }],
      0,
    );
    expect(refused).toEqual([{ ok: false, refusal: 'user-quota' }]);
    expect(trips).toEqual([{ sends: 1, committed: true, commitInTrip: false }]);
    expect((await balances(userId, tokenId)).user.held_quota).toBe(400);
  });

  it("a lost lease, found on the database's answer, refuses the hold without a change", async () => {
    const { userId, tokenId } = await account(1_000);
    stepByStep.length = 0;
    trips.length = 0;
    const payer = { userId, tokenId, unlimitedToken: false };
    await expect(
      ledger.hold(
        'never-registered',
        Date.now() + 60_000,
        [{ ...payer, amount: 100, ahead: 0, richFloor: 0 }],
        0,
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(trips).toEqual([{ sends: 1, committed: false, commitInTrip: false }]);
    expect(stepByStep).toEqual([]);
    expect((await balances(userId, tokenId)).user.held_quota).toBe(0);
  });

  it('a change that touched no row where the program does not mind (a channel deleted meanwhile) is kept', async () => {
    const { userId, tokenId } = await account(1_000);
    const { name, settlement } = await heldSettlement(userId, tokenId, 100, 40);
    trips.length = 0;
    stepByStep.length = 0;
    expect(await ledger.settle(name, 1, [{ ...settlement, channelId: 987_654 }], Date.now())).toEqual([40]);
    expect(trips).toEqual([{ sends: 1, committed: true, commitInTrip: true }]);
    expect(stepByStep).toEqual([]);
    expect((await balances(userId, tokenId)).user).toEqual({ quota: 960, used_quota: 40, held_quota: 0 });
  });

  it('a batch already settled is not charged twice when it is tried again', async () => {
    const { userId, tokenId } = await account(1_000);
    const { name, settlement } = await heldSettlement(userId, tokenId, 100, 40);
    await ledger.settle(name, 7, [settlement], Date.now());
    expect(await ledger.settle(name, 7, [settlement], Date.now(), true)).toEqual([40]);
    expect((await balances(userId, tokenId)).user).toEqual({ quota: 960, used_quota: 40, held_quota: 0 });
  });

  it('sends nothing it cannot write as a literal, and reads back what it wrote', async () => {
    const scripts = db.pgScripts as PgScripts;
    const texts = [
      "it's",
      'back\\slash',
      '$1 and $2',
      '-- not a comment',
      '漢字 🚀',
      '',
      "\\'; SELECT 1; --",
    ];
    let read: unknown[] = [];
    const committed = await scripts.transaction(async (send) => {
      const results = await send(
        texts.map((text) => ({ sql: 'SELECT $1::text AS value', parameters: [text] })),
      );
      read = results.map((result) => result.rows[0]?.value);
      return false;
    });
    expect(committed).toBe(false);
    expect(read).toEqual(texts);
    await scripts.transaction(async (send) => {
      const [result] = await send([
        {
          sql: 'SELECT 10 - $1 AS a, $2::numeric AS b, $3::float8 AS c, $4::bigint AS d',
          parameters: [-5, 0, 3.25, 2 ** 53 - 1],
        },
      ]);
      read = Object.values(result?.rows[0] ?? {});
      return false;
    });
    expect(read).toEqual([15, 0, 3.25, 2 ** 53 - 1]);
    for (const unwritable of ['a\u0000b', { an: 'object' }]) {
      const answer = await scripts.transaction(async (send) => {
        await send([{ sql: 'SELECT $1::text', parameters: [unwritable] }]);
        return true;
      });
      expect(answer).toBeUndefined();
    }
  });

  it('a trip can commit, its changes checked by the database: a wrong row count rolls all of it back', async () => {
    const { userId } = await account(1_000);
    const scripts = db.pgScripts as PgScripts;
    const quota = async () =>
      (await db.kysely.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow())
        .quota;
    const charge = (amount: number, atLeast: number) => ({
      sql: 'UPDATE users SET quota = quota - $1 WHERE id = $2 AND quota >= $3',
      parameters: [amount, userId, atLeast],
    });
    let error: unknown;
    const refused = scripts.transaction(async (send) => {
      await send([charge(100, 0)]);
      try {
        // Touches no row (the balance is not 5,000): the check fails the trip and its COMMIT.
        await send([charge(1, 0), expectingRows(charge(200, 5_000), 1)], { commit: true });
      } catch (failure) {
        error = failure;
      }
      return false;
    });
    expect(await refused).toBe(false);
    expect(isWrongRowCount(error)).toBe(true);
    expect(await quota()).toBe(1_000);

    let answers: unknown[] = [];
    const committed = await scripts.transaction(async (send) => {
      const results = await send([charge(100, 0), expectingRows(charge(200, 500), 1)], { commit: true });
      answers = results.map((result) => result.rowCount);
      // Committed with the trip: nothing more may be sent in it.
      await expect(send([charge(1, 0)])).rejects.toThrow(/committed/);
      return true;
    });
    expect(committed).toBe(true);
    expect(answers).toEqual([1, 1]);
    // Read through the pool: the commit went with the trip.
    expect(await quota()).toBe(700);
  });

  it('a statement that fails rolls everything back and leaves the connection usable', async () => {
    const { userId } = await account(1_000);
    const scripts = db.pgScripts as PgScripts;
    await expect(
      scripts.transaction(async (send) => {
        await send([{ sql: 'UPDATE users SET quota = quota - $1 WHERE id = $2', parameters: [100, userId] }]);
        await send([{ sql: 'SELECT 1 / $1::int', parameters: [0] }]);
        return true;
      }),
    ).rejects.toThrow(/division by zero/);
    const user = await db.kysely
      .selectFrom('users')
      .select('quota')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.quota).toBe(1_000);
  });

  it('a statement that fails in the first trip, with the BEGIN, rolls back too and leaves the connection usable', async () => {
    const { userId } = await account(1_000);
    const scripts = db.pgScripts as PgScripts;
    await expect(
      scripts.transaction(async (send) => {
        await send([
          { sql: 'UPDATE users SET quota = quota - $1 WHERE id = $2', parameters: [100, userId] },
          { sql: 'SELECT 1 / $1::int', parameters: [0] },
        ]);
        return true;
      }),
    ).rejects.toThrow(/division by zero/);
    // The pool hands the same connection out next: it must not be left in the aborted transaction.
    for (let round = 0; round < 3; round++) {
      const committed = await scripts.transaction(async (send) => {
        const [answer] = await send([{ sql: 'SELECT quota FROM users WHERE id = $1', parameters: [userId] }]);
        expect(answer?.rows[0]?.quota).toBe(1_000);
        return true;
      });
      expect(committed).toBe(true);
    }
  });

  describe('prepared statements', () => {
    /** Scripts over a pool of one connection, so that each transaction finds the one before's connection. */
    let pool: pg.Pool;
    let scripts: PgScripts;
    const target = () => {
      if (database.target.dialect !== 'postgres') throw new Error('PostgreSQL only');
      return database.target.connectionString;
    };
    beforeAll(() => {
      pool = new pg.Pool({ connectionString: target(), max: 1 });
      scripts = createPgScripts(pool);
    });
    afterAll(() => pool?.end());

    const charge = (userId: number, amount: number) => ({
      sql: 'UPDATE users SET quota = quota - $1 WHERE id = $2',
      parameters: [amount, userId],
    });
    const backend = { sql: 'SELECT pg_backend_pid() AS pid', parameters: [] };
    /** The connection's prepared statements: each one's values, how often it ran, the query it came in. */
    const preparedTexts = {
      sql:
        'SELECT cardinality(parameter_types) AS "values", generic_plans + custom_plans AS runs, statement ' +
        "FROM pg_prepared_statements WHERE name LIKE 'sy\\_%' ORDER BY prepare_time, 1 DESC",
      parameters: [],
    };
    const quota = async (userId: number) =>
      (await db.kysely.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow())
        .quota;
    /** One transaction's answers to `statements`, committed. */
    const inTransaction = async (...statements: Array<{ sql: string; parameters: readonly unknown[] }>) => {
      let results: Array<{ rowCount: number; rows: Array<Record<string, unknown>> }> = [];
      const committed = await scripts.transaction(async (send) => {
        results = await send(statements);
        return true;
      });
      expect(committed).toBe(true);
      return results;
    };

    it('are prepared once a connection, executed by name after, with the same answers', async () => {
      const { userId } = await account(1_000);
      const first = await inTransaction(charge(userId, 100), charge(userId, 10), backend);
      const second = await inTransaction(charge(userId, 1), backend, preparedTexts);
      expect(first.map((result) => result.rowCount)).toEqual([1, 1, 1]);
      expect(second[0]?.rowCount).toBe(1);
      // The same connection both times: prepared once, the statement's text as it was given.
      expect(second[1]?.rows[0]?.pid).toBe(first[2]?.rows[0]?.pid);
      // The charge, the backend's id and this read, each prepared once; the charge ran three times.
      expect(second[2]?.rows.map((row) => [row.values, Number(row.runs)])).toEqual([
        [2, 3],
        [0, 2],
        [0, 1],
      ]);
      expect(await quota(userId)).toBe(889);
    });

    it('a statement of many values goes with its values written in, not prepared', async () => {
      const many = Array.from({ length: 101 }, (_, at) => at);
      const wide = {
        sql: `SELECT ${many.map((at) => `$${at + 1}::int`).join(' + ')} AS total`,
        parameters: many,
      };
      const [sum, , prepared] = await inTransaction(wide, backend, preparedTexts);
      expect(sum?.rows[0]?.total).toBe(5_050);
      expect((prepared?.rows ?? []).some((row) => String(row.statement).includes('$101'))).toBe(false);
    });

    it('a trip that fails after preparing leaves its connection: the next one prepares again', async () => {
      const { userId } = await account(1_000);
      const [before] = await inTransaction(backend);
      const fresh = {
        sql: 'UPDATE users SET quota = quota - $1 WHERE id = $2 AND quota > 0',
        parameters: [5, userId],
      };
      await expect(
        scripts.transaction(async (send) => {
          await send([fresh, { sql: 'SELECT 1 / $1::int', parameters: [0] }]);
          return true;
        }),
      ).rejects.toThrow(/division by zero/);
      // A new connection, where the statement is prepared again (not refused as prepared already).
      const [answer, after, prepared] = await inTransaction(fresh, backend, preparedTexts);
      expect(answer?.rowCount).toBe(1);
      expect(after?.rows[0]?.pid).not.toBe(before?.rows[0]?.pid);
      expect((prepared?.rows ?? []).some((row) => String(row.statement).includes(fresh.sql))).toBe(true);
      expect(await quota(userId)).toBe(995);
    });

    it('a read whose columns a migration changed is prepared again on another connection', async () => {
      await sql`CREATE TABLE plan_probe (id integer PRIMARY KEY, v integer)`.execute(db.kysely);
      await sql`INSERT INTO plan_probe VALUES (1, 7)`.execute(db.kysely);
      const read = { sql: 'SELECT v FROM plan_probe WHERE id = $1', parameters: [1] };
      const [before] = await inTransaction(read, backend);
      await sql`ALTER TABLE plan_probe ALTER COLUMN v TYPE text`.execute(db.kysely);
      const [value, after, prepared] = await inTransaction(read, backend, preparedTexts);
      expect(value?.rows).toEqual([{ v: '7' }]);
      expect(after?.rows[0]?.pid).not.toBe(before?.rows[0]?.pid);
      // Still prepared, on the new connection.
      expect((prepared?.rows ?? []).some((row) => String(row.statement).includes(read.sql))).toBe(true);
    });

    it('a connection that lost its statements (a pooler) has its transaction run again, values written in, once', async () => {
      const { userId } = await account(1_000);
      await inTransaction(charge(userId, 1));
      // Behind a pooler the next transaction may get a connection that never saw the PREPARE.
      await inTransaction({ sql: 'DEALLOCATE ALL', parameters: [] });
      let runs = 0;
      const committed = await scripts.transaction(async (send) => {
        runs += 1;
        await send([charge(userId, 10)]);
        return true;
      });
      expect(committed).toBe(true);
      expect(runs).toBe(2);
      expect(await quota(userId)).toBe(989);
      // From then on nothing is prepared.
      const [, prepared] = await inTransaction(charge(userId, 100), preparedTexts);
      expect(prepared?.rows).toEqual([]);
      expect(await quota(userId)).toBe(889);
    });
  });
});
