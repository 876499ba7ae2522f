// Log retention at scale: fills PostgreSQL with BENCH_LOG_ROWS (10,000,000) usage logs spread over the
// last 90 days, then starts the gateway with LogRetentionDays = 30 under a light relay load (a fake
// upstream, 4 clients, non-streaming). The gateway's own background job deletes the older two thirds
// in batches; the bench times it from the outside and prints the relay's latency before and during.
// See docs/logs.md, "Log retention".
import path from 'node:path';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { openDatabase } from '../../server/src/db/database';
import { migrateToLatest } from '../../server/src/db/migrate';
import { rebuildLogSummaries } from '../../server/src/db/repos/log-summaries/rebuild';
import { sumLogQuota, sumLogQuotaRaw } from '../../server/src/db/repos/logs';
import { createBenchDatabase } from './bench-database';
import { buildBenchServers, ensureServerBuilt, portPrintedBy, root, start } from './processes';
import { startGateway, stop } from './servers';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 10_000_000);
const DAY = 86_400;
const SPAN = 90 * DAY;
const RETENTION_DAYS = 30;
const CONCURRENCY = 4;
const MODELS = ['gpt-3.5-turbo', 'gpt-4', 'gpt-4o', 'claude-3-haiku-20240307', 'gemini-1.5-pro'];

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const latencyLine = (label: string, samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: ${sorted.length} calls, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
};

async function fill(url: string, now: number): Promise<void> {
  const db = openDatabase({ dialect: 'postgres', connectionString: url });
  try {
    await migrateToLatest(db);
    let started = performance.now();
    await sql`insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota,
        prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
      select 1000 + i % 1000, ${now - SPAN} + (i * ${SPAN}::bigint / ${ROWS}), case when i % 50 = 0 then 1 else 2 end,
        'model ratio 1.00 × group ratio 1.00', 'user' || (i % 1000), 'token' || (i % 3000),
        (array[${sql.join(MODELS)}])[1 + i % ${MODELS.length}], i % 5000, i % 900, i % 400, 1 + i % 20, '', i % 3000,
        i % 2 = 0, false
      from generate_series(0, ${ROWS - 1}) as i`.execute(db.kysely);
    await sql`analyze logs`.execute(db.kysely);
    console.log(`filled ${ROWS.toLocaleString('en')} logs in ${seconds(performance.now() - started)} s`);
    started = performance.now();
    await rebuildLogSummaries(db);
    await sql`analyze`.execute(db.kysely);
    console.log(`summaries built in ${seconds(performance.now() - started)} s`);
  } finally {
    await db.close();
  }
}

/** Root's session, then the option saved through the console API as an administrator would. */
async function setRetention(gatewayUrl: string, days: number): Promise<void> {
  const login = await fetch(`${gatewayUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: '123456' }),
  });
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const saved = await fetch(`${gatewayUrl}/api/option/`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ key: 'LogRetentionDays', value: String(days) }),
  });
  const body = (await saved.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`LogRetentionDays: ${body.message}`);
}

/** Closed-loop relay calls until stopped, each latency kept with the time it ended. */
function relayLoad(origin: string, headers: Record<string, string>) {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const samples: Array<{ at: number; ms: number }> = [];
  let errors = 0;
  let running = true;
  const body = JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] });
  const done = Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (running) {
        const started = performance.now();
        try {
          const response = await pool.request({
            path: '/v1/chat/completions',
            method: 'POST',
            headers,
            body,
          });
          await response.body.text();
          if (response.statusCode !== 200) errors++;
        } catch {
          errors++;
        }
        samples.push({ at: Date.now(), ms: performance.now() - started });
      }
    }),
  );
  return {
    samples,
    errors: () => errors,
    stop: async () => {
      running = false;
      await done;
      await pool.close();
    },
  };
}

async function main(): Promise<void> {
  ensureServerBuilt();
  const servers = await buildBenchServers();
  const database = await createBenchDatabase('postgres', {
    dir: root,
    postgresAdminUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    name: 'retention',
  });
  const url = database.env.SQL_DSN;
  const upstream = start(undefined, process.execPath, [servers.fakeUpstream], {});
  const probe = openDatabase({ dialect: 'postgres', connectionString: url });
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  try {
    const now = Math.floor(Date.now() / 1000);
    await fill(url, now);
    const cutoff = now - RETENTION_DAYS * DAY;
    const oldRows = async () =>
      Number(
        (
          await probe.kysely
            .selectFrom('logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('created_at', '<', cutoff)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const toDelete = await oldRows();
    const upstreamUrl = `http://127.0.0.1:${await portPrintedBy(upstream)}`;
    const gatewayStarted = Date.now();
    gateway = await startGateway('gateway', database, upstreamUrl, {
      entry: path.join(root, 'server/dist/main.js'),
      cores: undefined,
      nodeArgs: [],
      env: {},
    });
    await setRetention(gateway.url, RETENTION_DAYS);
    const load = relayLoad(gateway.url, gateway.headers);
    const firstId = async () =>
      Number(
        (
          await probe.kysely
            .selectFrom('logs')
            .select((eb) => eb.fn.min('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );
    const oldest = async () =>
      Number(
        (
          await probe.kysely
            .selectFrom('logs')
            .select((eb) => eb.fn.min('created_at').as('t'))
            .executeTakeFirstOrThrow()
        ).t,
      );
    const initialId = await firstId();
    // The job's first run comes a minute after start-up, then every hour.
    while ((await firstId()) === initialId) await new Promise((resolve) => setTimeout(resolve, 250));
    const cleanupStarted = Date.now();
    console.log(`clean-up began ${seconds(cleanupStarted - gatewayStarted)} s after the gateway started`);
    while ((await oldest()) < cutoff) await new Promise((resolve) => setTimeout(resolve, 250));
    const cleanupEnded = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await load.stop();
    const before = load.samples.filter((s) => s.at < cleanupStarted).map((s) => s.ms);
    const during = load.samples
      .filter((s) => s.at >= cleanupStarted && s.at <= cleanupEnded)
      .map((s) => s.ms);
    const after = load.samples.filter((s) => s.at > cleanupEnded).map((s) => s.ms);
    console.log(
      `\nretention clean-up of ${RETENTION_DAYS} days: ${toDelete.toLocaleString('en')} of ${ROWS.toLocaleString('en')} logs deleted in ${seconds(cleanupEnded - cleanupStarted)} s (${Math.round((toDelete * 1000) / (cleanupEnded - cleanupStarted)).toLocaleString('en')} logs/s)`,
    );
    console.log(`relay load: ${CONCURRENCY} clients, non-streaming, errors ${load.errors()}`);
    console.log(latencyLine('  before the clean-up', before));
    console.log(latencyLine('  during the clean-up', during));
    console.log(latencyLine('  after the clean-up ', after));
    const left = await oldRows();
    const filters = [
      {},
      { type: 2, startTimestamp: cutoff - DAY, endTimestamp: now },
      { modelName: 'gpt-4' },
    ];
    for (const filter of filters) {
      const [fast, raw] = [await sumLogQuota(probe, filter, {}), await sumLogQuotaRaw(probe, filter, {})];
      if (fast !== raw)
        throw new Error(`total ${fast} differs from the plain SUM ${raw} (${JSON.stringify(filter)})`);
    }
    console.log(`logs older than the retention left: ${left}; totals equal the plain SUM: OK`);
  } finally {
    if (gateway) await stop(gateway.process);
    upstream.kill();
    await probe.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
