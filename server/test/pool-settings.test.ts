import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { waitUntil } from './wait';

/** The pool's connections MySQL sees (the counting query rides on one of them). */
async function mysqlConnections(t: TestApp, database: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.processlist
    where db = ${database}`.execute(t.db.kysely);
  return Number(rows[0]?.n);
}

describe('SQL_MAX_OPEN_CONNS, SQL_MAX_IDLE_CONNS, SQL_MAX_LIFETIME, SQLITE_BUSY_TIMEOUT, PG_PIPELINE', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        SQL_MAX_OPEN_CONNS: '3',
        SQL_MAX_IDLE_CONNS: '2',
        SQL_MAX_LIFETIME: '30',
        SQLITE_BUSY_TIMEOUT: '4321',
        PG_PIPELINE: 'false',
      },
    });
  });
  afterAll(() => t?.close());

  it('reach the driver: never more connections open than SQL_MAX_OPEN_CONNS under load', async () => {
    expect(t.config.databasePool).toEqual({
      maxOpen: 3,
      maxIdle: 2,
      maxLifetimeSeconds: 30,
      sqliteBusyTimeoutMs: 4321,
      pgPipeline: false,
    });
    const dialect = t.database.target.dialect;
    if (dialect === 'postgres') {
      // Without the pipeline the ledger runs on Kysely, a round trip per statement, and still holds.
      expect(t.db.pgScripts).toBeUndefined();
      await t.db.ledger.register('pool-test', Date.now() + 60_000);
      expect(await t.db.ledger.renew('pool-test', Date.now() + 60_000)).toBe(true);
    }
    if (dialect === 'sqlite') {
      expect(t.db.sqlite?.pragma('busy_timeout', { simple: true })).toBe(4321);
      return;
    }
    const sleep = dialect === 'postgres' ? sql`select pg_sleep(0.3)` : sql`select sleep(0.3)`;
    // Counted from a connection of the test's own, over and over while the load lasts: the most seen.
    const { target } = t.database;
    let count: () => Promise<number>;
    let closeCounter: () => Promise<void>;
    if (target.dialect === 'postgres') {
      const pg = await import('pg');
      const admin = new pg.default.Client({ connectionString: target.connectionString });
      await admin.connect();
      const name = new URL(target.connectionString).pathname.slice(1);
      count = async () => {
        const { rows } = await admin.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
        return Number(rows[0].n);
      };
      closeCounter = () => admin.end();
    } else {
      const mysql = await import('mysql2/promise');
      const admin = await mysql.createConnection({
        host: target.dialect === 'mysql' ? target.host : '',
        user: 'root',
        password: '',
      });
      count = async () => {
        const [rows] = await admin.query(
          'select count(*) as n from information_schema.processlist where db = ? and id <> connection_id()',
          [target.dialect === 'mysql' ? target.database : ''],
        );
        return Number((rows as Array<{ n: number }>)[0]?.n);
      };
      closeCounter = () => admin.end();
    }
    let loaded = false;
    const load = Promise.all(Array.from({ length: 12 }, () => sleep.execute(t.db.kysely))).finally(() => {
      loaded = true;
    });
    let peak = 0;
    try {
      while (!loaded) peak = Math.max(peak, await count());
      await load;
    } finally {
      await closeCounter();
    }
    expect(peak).toBe(3);
    // Back to idle: mysql2 keeps at most SQL_MAX_IDLE_CONNS of them (checked once a second).
    if (t.database.target.dialect === 'mysql') {
      const { database } = t.database.target;
      await waitUntil(async () => (await mysqlConnections(t, database)) <= 2, {
        what: 'the pool to close the idle connections past SQL_MAX_IDLE_CONNS',
        timeoutMs: 5_000,
        intervalMs: 100,
      });
    }
  });
});
