// Log table at scale: generates 1,000,000 usage logs, then times the console's list and stat
// queries (the server's own repository functions) on SQLite and PostgreSQL. The logs are written in
// bulk, then the summaries are built from them as the migration does for an adopted database. Last,
// the catch-up of logs another program wrote (one-api on the same database): with none, and 10,000.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LogFilter } from '@switchyard/contract/logs';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, openDatabase } from '../../server/src/db/database';
import { migrateToLatest } from '../../server/src/db/migrate';
import { catchUpLogSummaries } from '../../server/src/db/repos/log-summaries/catch-up';
import { rebuildLogSummaries } from '../../server/src/db/repos/log-summaries/rebuild';
import { type LogScope, listLogs, sumLogQuota, sumLogQuotaRaw } from '../../server/src/db/repos/logs';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const REPEAT = 5;
const USERS = 1000;
const MODELS = [
  'gpt-3.5-turbo',
  'gpt-4',
  'gpt-4o',
  'claude-3-haiku-20240307',
  'gemini-1.5-pro',
  'text-embedding-3-small',
];
const NOW = 1_780_000_000;
const SPAN = 180 * 86400;
const FOREIGN_ROWS = 10_000;

/** Log number i, as the bulk fill writes it (one-api's columns only, so not marked summarized). */
const logRow = (i: number, createdAt: number) => ({
  user_id: (i % USERS) + 1,
  created_at: createdAt,
  type: i % 50 === 0 ? 1 : 2,
  content: 'model ratio 1.00 × group ratio 1.00 × completion ratio 1.00',
  username: `user${i % USERS}`,
  token_name: `token${i % 3000}`,
  model_name: MODELS[i % MODELS.length]!,
  quota: i % 5000,
  prompt_tokens: i % 900,
  completion_tokens: i % 400,
  channel_id: 1 + (i % 20),
  request_id: '',
  elapsed_time: i % 3000,
  is_stream: i % 2 === 0,
  system_prompt_reset: false,
});

async function insertRows(db: Db, rows: ReturnType<typeof logRow>[]): Promise<void> {
  await db.kysely.transaction().execute(async (tx) => {
    for (let j = 0; j < rows.length; j += 500)
      await tx
        .insertInto('logs')
        .values(rows.slice(j, j + 500))
        .execute();
  });
}

async function fill(db: Db): Promise<void> {
  if (db.dialect === 'postgres') {
    await sql`insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota,
        prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
      select (i % ${USERS}) + 1, ${NOW - SPAN} + (i * ${SPAN}::bigint / ${ROWS}), case when i % 50 = 0 then 1 else 2 end,
        'model ratio 1.00 × group ratio 1.00 × completion ratio 1.00', 'user' || (i % ${USERS}), 'token' || (i % 3000),
        (array[${sql.join(MODELS)}])[1 + i % ${MODELS.length}], i % 5000, i % 900, i % 400, 1 + i % 20, '', i % 3000,
        i % 2 = 0, false
      from generate_series(0, ${ROWS - 1}) as i`.execute(db.kysely);
    await sql`analyze logs`.execute(db.kysely);
    return;
  }
  const batch = 5000;
  for (let start = 0; start < ROWS; start += batch) {
    const rows = Array.from({ length: Math.min(batch, ROWS - start) }, (_, offset) => {
      const i = start + offset;
      return logRow(i, NOW - SPAN + Math.floor((i * SPAN) / ROWS));
    });
    await insertRows(db, rows);
  }
  await sql`analyze`.execute(db.kysely);
}

async function time(work: () => Promise<unknown>): Promise<number> {
  await work();
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const CASES: Array<[string, Partial<LogFilter>, LogScope, number]> = [
  ['admin, no filter, page 0', {}, {}, 0],
  ['admin, no filter, page 100', {}, {}, 100],
  ['admin, consumption, last 7 days', { type: 2, startTimestamp: NOW - 7 * 86400, endTimestamp: NOW }, {}, 0],
  ['admin, one model', { modelName: 'gpt-4' }, {}, 0],
  ['admin, one user by name', { username: 'user42' }, {}, 0],
  ['admin, one token', { tokenName: 'token7' }, {}, 0],
  ['admin, one channel', { channel: 3 }, {}, 0],
  ['user (self), no filter', {}, { userId: 42 }, 0],
  [
    'user (self), one model, 30 days',
    { modelName: 'gpt-4o', startTimestamp: NOW - 30 * 86400, endTimestamp: NOW },
    { userId: 42 },
    0,
  ],
];

async function summarize(db: Db): Promise<void> {
  const started = performance.now();
  await rebuildLogSummaries(db);
  if (db.dialect === 'postgres') await sql`analyze log_summaries, log_daily_summaries`.execute(db.kysely);
  else await sql`analyze`.execute(db.kysely);
  const rows = async (table: 'log_summaries' | 'log_daily_summaries') =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toLocaleString('en');
  console.log(
    `summaries built in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `${await rows('log_summaries')} hourly rows, ${await rows('log_daily_summaries')} daily rows`,
  );
}

async function measure(label: string, db: Db): Promise<void> {
  const count = await db.kysely
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(`\n${label}: ${Number(count.n).toLocaleString('en')} logs`);
  for (const [name, filter, scope] of CASES) {
    const [fast, raw] = [await sumLogQuota(db, filter, scope), await sumLogQuotaRaw(db, filter, scope)];
    if (fast !== raw) throw new Error(`${name}: summary total ${fast} differs from the plain SUM ${raw}`);
  }
  console.log('query                                  |   list ms |   stat ms');
  for (const [name, filter, scope, page] of CASES) {
    const list = await time(() => listLogs(db, filter, scope, page));
    const stat = await time(() => sumLogQuota(db, filter, scope));
    console.log(`${name.padEnd(38)} | ${list.toFixed(2).padStart(9)} | ${stat.toFixed(2).padStart(9)}`);
  }
}

/**
 * The catch-up: with nothing new (what every process runs each minute), then with 10,000 logs another
 * program wrote in the last minute, as its own inserts; the totals must then equal the plain SUM again.
 */
async function measureCatchUp(db: Db): Promise<void> {
  const idle = await time(() => catchUpLogSummaries(db));
  const rows = Array.from({ length: FOREIGN_ROWS }, (_, j) => logRow(ROWS + j, NOW + (j % 60)));
  await insertRows(db, rows);
  const started = performance.now();
  const taken = await catchUpLogSummaries(db);
  const elapsed = performance.now() - started;
  if (taken !== FOREIGN_ROWS) throw new Error(`the catch-up took in ${taken} logs, not ${FOREIGN_ROWS}`);
  for (const [name, filter, scope] of CASES) {
    const [fast, raw] = [await sumLogQuota(db, filter, scope), await sumLogQuotaRaw(db, filter, scope)];
    if (fast !== raw) throw new Error(`${name} after the catch-up: total ${fast}, plain SUM ${raw}`);
  }
  const idleAgain = await time(() => catchUpLogSummaries(db));
  console.log(
    `catch-up with nothing new: ${idle.toFixed(2)} ms; of ${FOREIGN_ROWS.toLocaleString('en')} logs another ` +
      `program wrote: ${elapsed.toFixed(0)} ms; nothing new again: ${idleAgain.toFixed(2)} ms`,
  );
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-logs-'));
  const sqlite = openDatabase({ dialect: 'sqlite', file: path.join(dir, 'logs.db') });
  await migrateToLatest(sqlite);
  let started = performance.now();
  await fill(sqlite);
  console.log(
    `SQLite: generated ${ROWS.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await summarize(sqlite);
  await measure('SQLite', sqlite);
  await measureCatchUp(sqlite);
  await sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });

  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `sy_logs_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const postgres = openDatabase({ dialect: 'postgres', connectionString: url.toString() });
  try {
    await migrateToLatest(postgres);
    started = performance.now();
    await fill(postgres);
    console.log(
      `\nPostgreSQL: generated ${ROWS.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await summarize(postgres);
    await measure('PostgreSQL', postgres);
    await measureCatchUp(postgres);
  } finally {
    await postgres.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
