// WORKERS=1 against WORKERS=2 on this machine: the gateway unpinned (every core), with the fake
// upstream and the load generator on the same cores, as a gateway on a shared box would be. Rounds
// alternate the order; each round starts a fresh gateway on a fresh SQLite file. Billing and logs on.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { setUpAccount } from './gateway-setup';
import { type LoadResult, runLoad } from './load';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const GATEWAY_PORT = Number(process.env.BENCH_PORT ?? 3910);
const COUNTS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);
const TICKS_PER_SECOND = 100;
/** `postgres` runs each gateway on a fresh PostgreSQL database (BENCH_PG_URL names the server); else SQLite. */
const DATABASE = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database for one gateway: its SQL_DSN / SQLITE_PATH, and how to remove it. */
async function freshDatabase(dir: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (DATABASE === 'sqlite') {
    return { env: { SQL_DSN: '', SQLITE_PATH: path.join(dir, 'bench.db') }, drop: async () => {} };
  }
  const name = `switchyard_workers_bench_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    env: { SQL_DSN: url.toString() },
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** CPU ms a process and its children (the workers) used so far. */
function cpuMsOfTree(pid: number): number {
  const own = (id: number) => {
    try {
      const fields = fs.readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    } catch {
      return 0;
    }
  };
  const children = fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return own(pid) + children.reduce((sum, child) => sum + own(child), 0);
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const values = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

const portPrintedBy = (child: ChildProcess) =>
  new Promise<number>((resolve) =>
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim()))),
  );

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

interface Measured {
  workers: number;
  stream: boolean;
  load: LoadResult;
  /** Gateway CPU (primary and workers) per call, µs. */
  gatewayCpuUs: number;
  /** Share of the whole machine busy during the run (gateway, upstream, load generator). */
  machineBusy: number;
}

async function measure(workers: number, fakeUrl: string): Promise<Measured[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-workers-bench-'));
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'server/package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  const nodeFlags = manifest.scripts.serve.split(' ').filter((part) => part.startsWith('--'));
  const database = await freshDatabase(dir);
  const gateway = spawn(process.execPath, [...nodeFlags, path.join(root, 'server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(GATEWAY_PORT),
      ...database.env,
      SESSION_SECRET: 'bench',
      LOG_LEVEL: 'warn',
      WORKERS: String(workers),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const gatewayUrl = `http://127.0.0.1:${GATEWAY_PORT}`;
  try {
    await waitFor(`${gatewayUrl}/api/status`);
    // Every worker listens before the primary says so; the status answering means one does.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { key } = await setUpAccount(gatewayUrl, fakeUrl);
    const results: Measured[] = [];
    for (const stream of [false, true]) {
      const cpuBefore = cpuMsOfTree(gateway.pid!);
      const machineBefore = machineTicks();
      const load = await runLoad({
        origin: gatewayUrl,
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}` },
        body: JSON.stringify({
          model: 'gpt-3.5-turbo',
          messages: [{ role: 'user', content: 'Hello!' }],
          stream,
        }),
        concurrency: CONCURRENCY,
        seconds: SECONDS,
        warmupSeconds: WARMUP,
      });
      const machineAfter = machineTicks();
      // Over warm-up and measurement, per call: the warm-up ran at about the same rate.
      const calls = load.requests * (1 + WARMUP / SECONDS);
      results.push({
        workers,
        stream,
        load,
        gatewayCpuUs: ((cpuMsOfTree(gateway.pid!) - cpuBefore) * 1000) / calls,
        machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
      });
    }
    return results;
  } finally {
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'ignore' });
  const fake = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/src/fake-upstream.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const fakeUrl = `http://127.0.0.1:${await portPrintedBy(fake)}`;
  const all: Measured[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? COUNTS : [...COUNTS].reverse();
    for (const workers of order) all.push(...(await measure(workers, fakeUrl)));
  }
  fake.kill('SIGTERM');
  console.log(
    `\nWORKERS compared (${os.availableParallelism()} cores; gateway, upstream and load generator on all of them; c=${CONCURRENCY}; medians of ${ROUNDS} × ${SECONDS} s; ${DATABASE})`,
  );
  console.log(
    'case        | workers |     rps | p50 ms | p99 ms | gateway CPU µs/call | machine busy | errors',
  );
  for (const stream of [false, true]) {
    for (const workers of COUNTS) {
      const runs = all.filter((run) => run.workers === workers && run.stream === stream);
      console.log(
        `${stream ? 'stream    ' : 'non-stream'}  | ${String(workers).padStart(7)} | ${median(
          runs.map((r) => r.load.rps),
        )
          .toFixed(0)
          .padStart(7)} | ${median(runs.map((r) => r.load.p50))
          .toFixed(2)
          .padStart(6)} | ${median(runs.map((r) => r.load.p99))
          .toFixed(2)
          .padStart(6)} | ${median(runs.map((r) => r.gatewayCpuUs))
          .toFixed(0)
          .padStart(
            19,
          )} | ${(median(runs.map((r) => r.machineBusy)) * 100).toFixed(0).padStart(11)}% | ${runs.reduce((sum, r) => sum + r.load.errors, 0)}`,
      );
    }
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
