// The gateway's database for a run: a fresh SQLite file, or a fresh PostgreSQL database dropped at the
// end; and the billing check that reads it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { BenchDatabase } from './settings';

/** What the gateway recorded for the bench's user: consume logs and the user's own counters. */
export interface Billing {
  logs: number;
  logQuota: number;
  requests: number;
  usedQuota: number;
}

export interface BenchDatabaseHandle {
  kind: BenchDatabase;
  env: { SQL_DSN: string; SQLITE_PATH: string };
  billing(userId: number): Promise<Billing>;
  drop(): Promise<void>;
}

const LOGS = 'select count(*) as n, coalesce(sum(quota), 0) as q from logs where type = 2';
const USER = 'select used_quota, request_count from users where id = $1';

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
        return { logs: logs.n, logQuota: logs.q, requests: user.request_count, usedQuota: user.used_quota };
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
        return {
          logs: Number(logs.n),
          logQuota: Number(logs.q),
          requests: Number(user.request_count),
          usedQuota: Number(user.used_quota),
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
