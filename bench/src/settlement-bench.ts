// What each of the ledger's writes beyond the ledger floor's costs a settlement on SQLite: the floor's
// writes (a user, a key, the logs) and then, one group at a time, what the gateway's settlement adds
// for a guarantee or a feature, with the ledger's own statements on the server's own schema. Each
// line is a transaction of one call (a settlement at c=1) or of sixteen (a busy loop's batch): µs a
// transaction and the WAL frames (pages) its commit writes. The last line is the ledger itself
// (db.ledger.settle) on a database the server opens as it does in production, checkpointer and all.
// (The holder's batch number, which the servers' settlements also write, SQLite keeps in the process.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../server/src/db/database';
import { ledgerStatements, logInsert, logValues } from '../../server/src/db/ledger/statements';
import { migrateToLatest } from '../../server/src/db/migrate';
import { summarizeLogs } from '../../server/src/db/repos/log-summaries/buckets';
import { dailyValues, hourlyValues, summaryUpsert } from '../../server/src/db/repos/log-summaries/upserts';
import type { NewLogRow } from '../../server/src/db/schema';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 3000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const BATCHES = [1, 16];
const COST = 7;
const PLENTY = 1e15;
const HOLDER = 'bench';

/** Cumulative: each group's line adds its statements to those of the lines above it. */
const GROUPS = [
  { name: "the ledger floor's writes: the user, the key, the logs", adds: 'floor' },
  { name: "+ the channel's used quota", adds: 'channel' },
  { name: "+ the hold's release (a dead process's holds are given back)", adds: 'release' },
  { name: "+ the log summaries, hourly and daily (the console's usage)", adds: 'summaries' },
] as const;
type Group = (typeof GROUPS)[number]['adds'];

const logOf = (n: number, now: number): NewLogRow => ({
  user_id: 1,
  created_at: now,
  type: 2,
  content: 'model ratio 1.00 × group ratio 1.00 × completion ratio 1.00',
  username: 'bench',
  token_name: 'bench',
  model_name: 'gpt-4o-mini',
  quota: COST,
  prompt_tokens: 12,
  completion_tokens: 30,
  channel_id: 1,
  request_id: `bench-${n}-${Math.random().toString(36).slice(2)}`,
  elapsed_time: 12,
  is_stream: false,
  system_prompt_reset: false,
  facts: '{"kind":"consume","modelRatio":1,"groupRatio":1,"completionRatio":1}',
});

/** The server's schema, migrated by the server, with one user, key and channel, and a hold. */
async function migratedDatabase(file: string): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', file });
  await migrateToLatest(db);
  await db.close();
  const raw = new Database(file);
  raw.exec(`
    INSERT INTO users (id, username, password, quota, held_quota) VALUES (1, 'bench', '-', ${PLENTY}, ${PLENTY / 2});
    INSERT INTO tokens (id, user_id, key, name, remain_quota, held_quota, unlimited_quota)
      VALUES (1, 1, 'bench', 'bench', ${PLENTY}, ${PLENTY / 2}, 0);
    INSERT INTO channels (id, type, key, name, models) VALUES (1, 1, '-', 'bench', 'gpt-4o-mini');
    INSERT INTO quota_holders (holder, expires_at, settled_seq, released_at) VALUES ('${HOLDER}', ${PLENTY}, 0, 0);
    INSERT INTO quota_holds (holder, user_id, token_id, amount, token_amount)
      VALUES ('${HOLDER}', 1, 1, ${PLENTY / 2}, ${PLENTY / 2});`);
  raw.close();
}

/** One transaction of `calls` calls with the statements of the groups up to `last`. */
function writer(raw: Database.Database, last: Group) {
  const upTo = GROUPS.findIndex((group) => group.adds === last);
  const has = (group: Group) => GROUPS.findIndex((g) => g.adds === group) <= upTo;
  const sql = ledgerStatements('sqlite');
  const prepared = Object.fromEntries(
    (['chargeUser', 'chargeToken', 'chargeChannel', 'releaseHold'] as const).map((name) => [
      name,
      raw.prepare(sql[name]),
    ]),
  );
  const insertLog = raw.prepare(logInsert('sqlite', 1));
  const hourly = raw.prepare(summaryUpsert('sqlite', 'log_summaries', 1));
  const daily = raw.prepare(summaryUpsert('sqlite', 'log_daily_summaries', 1));
  const values: unknown[] = [];
  let n = 0;
  return raw.transaction((calls: number) => {
    const now = Math.floor(Date.now() / 1000);
    const cost = COST * calls;
    // As the ledger's fast settlement: the hold's row released, its amount given back in the charges.
    const release = has('release') ? cost : 0;
    if (release > 0) prepared.releaseHold?.run(cost, cost, HOLDER, 1, 1, cost, cost);
    prepared.chargeUser?.run(release, cost, cost, calls, 1, release, cost, cost);
    prepared.chargeToken?.run(release, cost, cost, now, 1, release, cost, cost);
    if (has('channel')) prepared.chargeChannel?.run(cost, 12, 1);
    const logs: NewLogRow[] = [];
    for (let call = 0; call < calls; call++) logs.push(logOf(n + call, now));
    n += calls;
    for (const log of logs) {
      logValues(log, values);
      insertLog.run(values.map((value) => (typeof value === 'boolean' ? Number(value) : value)));
    }
    if (has('summaries')) {
      const { hourly: hours, daily: days } = summarizeLogs(logs);
      for (const row of hours) hourly.run(hourlyValues(row));
      for (const row of days) daily.run(dailyValues(row));
    }
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Measured {
  /** Wall-clock µs a transaction, each repeat. */
  us: number[];
  /** CPU µs a transaction, every thread of the process (the checkpointer's too), each repeat. */
  cpu: number[];
  /** WAL frames a commit (groups only: the ledger's checkpointer moves them meanwhile). */
  frames?: number;
}

/** Runs `transactions` transactions through `write`; adds their µs and CPU µs to `into`. */
async function timed(into: Measured, transactions: number, write: () => unknown): Promise<void> {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let index = 0; index < transactions; index++) await write();
  const { user, system } = process.cpuUsage(cpu);
  into.us.push(Number(process.hrtime.bigint() - started) / 1e3 / transactions);
  into.cpu.push((user + system) / transactions);
}

const entry = (results: Map<string, Measured>, key: string): Measured => {
  let found = results.get(key);
  if (!found) {
    found = { us: [], cpu: [] };
    results.set(key, found);
  }
  return found;
};

/** Each group and batch size, repeats interleaved. */
async function measureGroups(file: string, results: Map<string, Measured>): Promise<void> {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  // The frames are counted from the log: nothing moves them into the database meanwhile.
  raw.pragma('wal_autocheckpoint = 0');
  const writers = new Map(GROUPS.map(({ adds }) => [adds, writer(raw, adds)]));
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const calls of BATCHES) {
      for (const { adds } of GROUPS) {
        const write = writers.get(adds) as (calls: number) => void;
        raw.pragma('wal_checkpoint(TRUNCATE)');
        const transactions = Math.ceil(TRANSACTIONS / calls);
        const measured = entry(results, `${adds} ${calls}`);
        await timed(measured, transactions, () => write(calls));
        const [checkpoint] = raw.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
        measured.frames = (checkpoint?.log ?? 0) / transactions;
      }
    }
  }
  raw.close();
}

/** The ledger's own settlement, as the server runs it (its connection, its checkpointer). */
async function measureLedger(file: string, results: Map<string, Measured>): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', file });
  let seq = 0;
  let n = 0;
  const settlement = (now: number) => ({
    holder: HOLDER,
    userId: 1,
    tokenId: 1,
    unlimitedToken: false,
    amount: COST,
    channelId: 1,
    cost: COST,
    elapsedMs: 12,
    log: logOf(n++, now),
  });
  try {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const calls of BATCHES) {
        await timed(entry(results, `ledger ${calls}`), Math.ceil(TRANSACTIONS / calls), () => {
          const now = Math.floor(Date.now() / 1000);
          const batch = Array.from({ length: calls }, () => settlement(now));
          seq += 1;
          return db.ledger.settle(HOLDER, seq, batch, now);
        });
      }
    }
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-settlement-'));
  const results = new Map<string, Measured>();
  try {
    const groupsFile = path.join(dir, 'groups.db');
    const ledgerFile = path.join(dir, 'ledger.db');
    await migratedDatabase(groupsFile);
    await migratedDatabase(ledgerFile);
    await measureGroups(groupsFile, results);
    await measureLedger(ledgerFile, results);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `The settlement's transaction on SQLite (WAL, synchronous = NORMAL), medians of ${REPEATS} × ${TRANSACTIONS} calls:\n` +
      'µs a transaction, CPU µs a transaction (every thread) and the WAL frames its commit writes\n',
  );
  const head = BATCHES.map((calls) => `${calls} call${calls > 1 ? 's' : ''}: µs | CPU µs | frames`);
  console.log(`| writes | ${head.join(' | ')} |`);
  console.log(`|---|${BATCHES.map(() => '---|---|---').join('|')}|`);
  const row = (name: string, key: (calls: number) => string) => {
    const cells = BATCHES.map((calls) => {
      const measured = results.get(key(calls));
      const frames = measured?.frames === undefined ? '' : measured.frames.toFixed(1);
      return `${median(measured?.us ?? []).toFixed(1)} | ${median(measured?.cpu ?? []).toFixed(1)} | ${frames}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  };
  for (const { name, adds } of GROUPS) row(name, (calls) => `${adds} ${calls}`);
  row(
    "the ledger's settlement itself (db.ledger.settle, with the server's checkpointer)",
    (calls) => `ledger ${calls}`,
  );
}

await main();
