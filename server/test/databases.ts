import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseTarget } from '../src/config/database-target';

export type TestDialect = 'sqlite' | 'postgres' | 'mysql';

/** Which real database this run of the suite uses (the test script runs it once per database). */
export const TEST_DIALECT: TestDialect = (process.env.TEST_DB as TestDialect | undefined) ?? 'sqlite';

const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * PG_PIPELINE as this run sets it (run-all-dbs.mjs's `postgres-stepwise` run: `false`), for every
 * server a test starts on PostgreSQL: its ledger runs step by step then.
 */
export const PG_PIPELINE_ENV: { PG_PIPELINE?: string } = process.env.PG_PIPELINE
  ? { PG_PIPELINE: process.env.PG_PIPELINE }
  : {};
const MYSQL_HOST = process.env.TEST_MYSQL_HOST ?? '127.0.0.1';

export interface TestDatabase {
  target: DatabaseTarget;
  /** The SQL_DSN / SQLITE_PATH (and PG_PIPELINE) a child process would use to reach the same database. */
  env: { SQL_DSN: string; SQLITE_PATH: string; PG_PIPELINE?: string };
  drop(): Promise<void>;
}

/** A brand-new, empty database on the real server, so test files never see each other's rows. */
export async function createTestDatabase(dialect: TestDialect = TEST_DIALECT): Promise<TestDatabase> {
  const name = `sy_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-'));
    const file = path.join(dir, 'test.db');
    return {
      target: { dialect: 'sqlite', file },
      env: { SQL_DSN: '', SQLITE_PATH: file },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN);
    url.pathname = `/${name}`;
    return {
      target: { dialect: 'postgres', connectionString: url.toString() },
      env: { SQL_DSN: url.toString(), SQLITE_PATH: '', ...PG_PIPELINE_ENV },
      drop: async () => {
        const client = new pg.Client({ connectionString: PG_ADMIN });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  const admin = await createConnection({ host: MYSQL_HOST, user: 'root', password: '' });
  await admin.query(`create database ${name} character set utf8mb4`);
  await admin.end();
  return {
    target: { dialect: 'mysql', host: MYSQL_HOST, port: 3306, user: 'root', password: '', database: name },
    env: { SQL_DSN: `root:@tcp(${MYSQL_HOST}:3306)/${name}`, SQLITE_PATH: '' },
    drop: async () => {
      const connection = await createConnection({ host: MYSQL_HOST, user: 'root', password: '' });
      await connection.query(`drop database if exists ${name}`);
      await connection.end();
    },
  };
}

/**
 * The other kind of database for LOG_SQL_DSN's tests: the logs never share the main database's kind,
 * and over the three runs each kind holds the logs once (SQLite → PostgreSQL → MySQL → SQLite).
 */
export const LOG_TEST_DIALECT: TestDialect = (
  { sqlite: 'postgres', postgres: 'mysql', mysql: 'sqlite' } as const
)[TEST_DIALECT];

/** The LOG_SQL_DSN that names a test database. */
export const logSqlDsnOf = (database: TestDatabase): string =>
  database.target.dialect === 'sqlite' ? `sqlite:${database.target.file}` : database.env.SQL_DSN;

/** A second private database for the usage logs (LOG_SQL_DSN), on the other server than TEST_DB's. */
export function createLogTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase(LOG_TEST_DIALECT);
}
