// The gateway's database for a run: a fresh SQLite file, or a fresh PostgreSQL database dropped at the
// end; and the billing check that reads it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { BenchDatabase } from './settings';

/** The consume logs of one kind of call (streamed or not): how many, their sum, their least and most. */
export interface LogKind {
  stream: boolean;
  logs: number;
  quota: number;
  minQuota: number;
  maxQuota: number;
}

/** What the gateway recorded for the bench's user: consume logs and the user's and keys' counters. */
export interface Billing {
  logs: number;
  logQuota: number;
  requests: number;
  usedQuota: number;
  keysUsedQuota: number;
  kinds: LogKind[];
}

export interface BenchDatabaseHandle {
  kind: BenchDatabase;
  env: { SQL_DSN: string; SQLITE_PATH: string };
  billing(userId: number): Promise<Billing>;
  drop(): Promise<void>;
}

const LOGS = 'select count(*) as n, coalesce(sum(quota), 0) as q from logs where type = 2';
const USER = 'select used_quota, request_count from users where id = $1';
const KEYS = 'select coalesce(sum(used_quota), 0) as q from tokens where user_id = $1';
const KINDS = `select is_stream, count(*) as n, sum(quota) as q, min(quota) as lo, max(quota) as hi
  from logs where type = 2 group by is_stream order by is_stream`;

interface KindRow {
  is_stream: number | boolean;
  n: number | string;
  q: number | string;
  lo: number | string;
  hi: number | string;
}

const kindOf = (row: KindRow): LogKind => ({
  stream: row.is_stream === true || row.is_stream === 1,
  logs: Number(row.n),
  quota: Number(row.q),
  minQuota: Number(row.lo),
  maxQuota: Number(row.hi),
});

function sqlite(dir: string, name: string): BenchDatabaseHandle {
  const file = path.join(dir, `${name}.db`);
  return {
    kind: 'sqlite',
    env: { SQL_DSN: '', SQLITE_PATH: file },
    billing: async (userId) => {
      const db = new Database(file, { readonly: true });
      try {
        const logs = db.prepare(LOGS).get() as { n: number; q: number };
        const user = db.prepare(USER.replace('$1', '?')).get(userId) as {
          used_quota: number;
          request_count: number;
        };
        const keys = db.prepare(KEYS.replace('$1', '?')).get(userId) as { q: number };
        return {
          logs: logs.n,
          logQuota: logs.q,
          requests: user.request_count,
          usedQuota: user.used_quota,
          keysUsedQuota: keys.q,
          kinds: (db.prepare(KINDS).all() as KindRow[]).map(kindOf),
        };
      } finally {
        db.close();
      }
    },
    drop: async () => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    },
  };
}

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function postgres(adminUrl: string, name: string): Promise<BenchDatabaseHandle> {
  const database = `switchyard_bench_${process.pid}_${name}`;
  await onServer(adminUrl, (client) => client.query(`create database ${database}`));
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    kind: 'postgres',
    env: { SQL_DSN: url.toString(), SQLITE_PATH: '' },
    billing: (userId) =>
      onServer(url.toString(), async (client) => {
        const logs = (await client.query<{ n: string; q: string }>(LOGS)).rows[0]!;
        const user = (await client.query<{ used_quota: string; request_count: string }>(USER, [userId]))
          .rows[0]!;
        const keys = (await client.query<{ q: string }>(KEYS, [userId])).rows[0]!;
        return {
          logs: Number(logs.n),
          logQuota: Number(logs.q),
          requests: Number(user.request_count),
          usedQuota: Number(user.used_quota),
          keysUsedQuota: Number(keys.q),
          kinds: (await client.query<KindRow>(KINDS)).rows.map(kindOf),
        };
      }),
    drop: () =>
      onServer(adminUrl, (client) => client.query(`drop database if exists ${database} with (force)`)).then(
        () => undefined,
      ),
  };
}

/** A fresh database of the given kind; `name` tells apart several in one run. */
export const createBenchDatabase = (
  kind: BenchDatabase,
  options: { dir: string; postgresAdminUrl: string; name: string },
): Promise<BenchDatabaseHandle> =>
  kind === 'sqlite'
    ? Promise.resolve(sqlite(options.dir, options.name))
    : postgres(options.postgresAdminUrl, options.name);
