import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { ledgerStatements } from '../src/db/ledger/statements';
import { expectingRows, preparedStatementName } from '../src/db/pg-script';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { clientsFor } from './harness';
import { books, sleep } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { targetPort, throughProxy } from './process/database-proxy';
import { TcpProxy } from './process/tcp-proxy';
import { createChannel, createCustomer } from './relay-setup';
import { waitUntil } from './wait';

const LEASE_S = 3;

const until = (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) =>
  waitUntil(check, { what, timeoutMs, intervalMs: 20 });

/**
 * The statements of this test's database that wait for a row lock now. MariaDB's lock views
 * (INFORMATION_SCHEMA.INNODB_TRX, INNODB_LOCK_WAITS) come from a cache refreshed only once nobody read
 * it for 100 ms, so polled they go stale for good; its process list is live, and while the test holds
 * the rows these statements need, one that runs is one that waits.
 */
async function waitingStatements(db: Db): Promise<string[]> {
  if (TEST_DIALECT === 'postgres') {
    const { rows } = await sql<{ query: string }>`
      select query from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db.kysely);
    return rows.map(({ query }) => query.toLowerCase());
  }
  const { rows } = await sql<{ query: string | null }>`
    select info as query from information_schema.processlist
    where db = database() and command = 'Query' and id <> connection_id()`.execute(db.kysely);
  return rows.map(({ query }) => (query ?? '').toLowerCase());
}

/** What the database is doing and what it holds for the user, for a wait that did not end. */
async function whatWaits(db: Db, userId: number, holder: string): Promise<string> {
  const activity =
    TEST_DIALECT === 'postgres'
      ? sql`select pid, state, wait_event_type, wait_event, left(query, 300) as query from pg_stat_activity
          where datname = current_database()`
      : sql`select id, command, state, left(info, 300) as query from information_schema.processlist
          where db = database()`;
  const [sessions, holders, holds] = await Promise.all([
    activity.execute(db.kysely),
    sql`select * from quota_holders`.execute(db.kysely),
    sql`select * from quota_holds where user_id = ${userId}`.execute(db.kysely),
  ]);
  return JSON.stringify(
    { now: Date.now(), holder, sessions: sessions.rows, holders: holders.rows, holds: holds.rows },
    null,
    1,
  );
}

/**
 * What shows of a ledger statement containing `fragment` in a waiting query's text: the fragment, or
 * on PostgreSQL the `EXECUTE` of the statement prepared (as sent, or checked by expectingRows).
 */
function signsOf(fragment: string): string[] {
  if (TEST_DIALECT !== 'postgres') return [fragment];
  const texts = Object.values(ledgerStatements('postgres')).filter((text) =>
    text.toLowerCase().includes(fragment),
  );
  const names = texts
    .flatMap((text) => [text, expectingRows({ sql: text, parameters: [] }, 1).sql])
    .map((text) => preparedStatementName(text));
  return [fragment, ...names.flatMap((name) => (name ? [`execute ${name}`] : []))];
}

/** How many of the statements contain `fragment`, or show one of the ledger's statements that do. */
const count = (statements: string[], fragment: string) => {
  const signs = signsOf(fragment);
  return statements.filter((statement) => signs.some((sign) => statement.includes(sign))).length;
};

// A row lock needs a database server: SQLite has one writer at a time.
describe.skipIf(TEST_DIALECT === 'sqlite')('a lease that ran out fences its holder', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: TestDatabase;
  let db: Db;
  let fake: HttpFake;
  let proxy: TcpProxy;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(openAiHandler()).start(),
    ]);
    db = openDatabase(database.target);
    proxy = await new TcpProxy('127.0.0.1', targetPort(database)).start();
    const lease = { QUOTA_HOLD_LEASE: String(LEASE_S) };
    a = new ServerProcess(build.entry, await freePort(), { ...database.env, ...lease });
    await a.start();
    b = new ServerProcess(build.entry, await freePort(), { ...throughProxy(database, proxy.port), ...lease });
    await b.start();
    await createChannel(await clientsFor(a.baseUrl).root(), { base_url: fake.url });
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await proxy?.close();
    await db?.close();
    await Promise.all([database?.drop(), fake?.close()]);
    build?.remove();
  });

  it("a give-back the network held up past the lease is not given back again by another process's sweep", async () => {
    const funds = 5_000_000;
    const customer = await createCustomer(clientsFor(a.baseUrl), 'fenced', { quota: funds });
    const callThroughB = async () => {
      const answer = await fetch(`${b.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(answer.status).toBe(200);
      await answer.text();
    };
    /** An operator's transaction holding the user's row until `unlock`. */
    const lockUserRow = () => {
      let unlock!: () => void;
      const unlocked = new Promise<void>((resolve) => {
        unlock = resolve;
      });
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const done = db.kysely.transaction().execute(async (trx) => {
        await sql`select quota from users where id = ${customer.userId} for update`.execute(trx);
        locked();
        await unlocked;
      });
      return { taken, unlock, done };
    };

    const booksNow = () => books({ db }, customer.userId, customer.token.id);
    /** The books once nothing is held any more, or as they stand after 10 s (held below zero stays so). */
    const settled = async () => {
      const deadline = Date.now() + 10_000;
      let now = await booksNow();
      while ((now.held !== 0 || now.tokenHeld !== 0) && Date.now() < deadline) {
        await sleep(100);
        now = await booksNow();
      }
      return now;
    };

    let holder = '';
    /** Partitions B while its give-back waits; answers whether A's sweep took B's holds over. */
    const partitionB = async (): Promise<boolean> => {
      // An operator's transaction locks the user's row...
      const operator = lockUserRow();
      await operator.taken;
      try {
        // ...before B's idle give-back (2 s after the call) ran: on a loaded machine it may have.
        if ((await booksNow()).held === 0) return false;
        // B's idle give-back waits on that row...
        await until(
          'B to give its credit back',
          async () => count(await waitingStatements(db), 'held_quota - ') >= 1,
        );
        // ...when the network to B stops passing.
        proxy.blackHole();
        const bHolder = await sql<{ holder: string }>`
          select holder from quota_holds where user_id = ${customer.userId}`.execute(db.kysely);
        holder = bHolder.rows[0]?.holder ?? '';
        // B's lease runs out; A's sweep takes over B's holds and waits too.
        await until("B's lease to run out", async () => {
          const { rows } = await sql<{ expires_at: string }>`
            select expires_at from quota_holders where holder = ${holder}`.execute(db.kysely);
          return Number(rows[0]?.expires_at ?? 0) < Date.now();
        });
        // A renewal B sent before the network stopped waits on its holder row ahead of A's sweep and
        // keeps the lease: B was not cut off in time.
        if (count(await waitingStatements(db), 'set expires_at') > 0) return false;
        // It waits on B's holder row, or (without fencing) gives back what it read and waits on the user row.
        await until("A's sweep to wait its turn", async () => {
          const statements = await waitingStatements(db);
          return count(statements, 'set released_at') >= 1 || count(statements, 'held_quota - ') >= 2;
        }).catch(async (error: Error) => {
          const logs = `A's log ends:\n${a.output.slice(-2_000)}\nB's log ends:\n${b.output.slice(-2_000)}`;
          throw new Error(`${error.message}\n${await whatWaits(db, customer.userId, holder)}\n${logs}`);
        });
        return true;
      } finally {
        operator.unlock();
        await operator.done;
        // B's change goes through, the network comes back, B commits.
        await proxy.restore();
      }
    };

    /** Whether A's sweep released B's lease: else B's own commit came first and there was nothing to fence. */
    const tookOver = async () => {
      const claimed = await sql<{ released_at: string }>`
        select released_at from quota_holders where holder = ${holder}`.execute(db.kysely);
      return Number(claimed.rows[0]?.released_at ?? 0) > 0;
    };

    let calls = 0;
    for (;;) {
      if (calls === 6) throw new Error("six rounds and A's sweep never took over B's holds");
      await callThroughB();
      calls++;
      // B holds credit ahead for the account (partitionB finds out whether it still does). On
      // PostgreSQL A's claim re-reads B's holder row once B commits, so B may still win the race.
      const partitioned = await partitionB();
      const now = await settled();
      expect([now.held, now.tokenHeld]).toEqual([0, 0]);
      if (partitioned && (await tookOver())) break;
    }

    const now = await settled();
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    expect(now.quota + now.usedQuota).toBe(funds);
    expect(now.logs).toBe(calls);
    expect(now.logged).toBe(now.usedQuota);
  }, 180_000);
});
