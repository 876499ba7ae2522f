// Relay overhead benchmark: a fake upstream and the gateway on loopback, gateway alone on core 0,
// fake upstream and load generator on core 1. Billing, token checks and consumption logs stay on.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type LoadResult, runLoad } from './load';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const GATEWAY_PORT = Number(process.env.BENCH_PORT ?? 3900);
/** A folder for a V8 CPU profile of the gateway (written when it shuts down), to see where time goes. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** Which cases to run, e.g. `stream:64` (default: all four). */
const CASES = (process.env.BENCH_CASES ?? 'plain:1,plain:64,stream:1,stream:64').split(',');
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pinned = (core: number, command: string, args: string[]) =>
  hasTaskset ? { command: 'taskset', args: ['-c', String(core), command, ...args] } : { command, args };

function start(core: number, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const target = pinned(core, command, args);
  return spawn(target.command, target.args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The port a child prints as its first line once it listens. */
const portPrintedBy = (child: ChildProcess) =>
  new Promise<number>((resolve) =>
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim()))),
  );

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function api(base: string, cookie: string, method: string, url: string, body?: unknown) {
  const response = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; message: string; data?: unknown };
  if (!json.success) throw new Error(`${method} ${url}: ${json.message}`);
  return { json, cookie: response.headers.getSetCookie()[0]?.split(';')[0] ?? cookie };
}

/** CPU time (ms) the process has used so far: robust to other load on the machine, unlike latency. */
function cpuMsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

function rssOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: read('VmRSS'), peak: read('VmHWM') };
}

const format = (value: number, digits = 2) => value.toFixed(digits).padStart(9);

/** The node flags of the server's serve script (`node <flags> dist/main.js`). */
function servedNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'server/package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  return manifest.scripts.serve.split(' ').filter((word) => word.startsWith('--'));
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'server/dist/main.js'))) {
    spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });
  }
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-'));
  const dbFile = path.join(dir, 'bench.db');

  const fake = start(
    1,
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/src/fake-upstream.ts')],
    {},
  );
  const fakePort = await portPrintedBy(fake);
  const fakeUrl = `http://127.0.0.1:${fakePort}`;
  const profileArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  // The gateway runs with the node flags of `npm start` (the server's serve script), plus any extra
  // ones given to compare settings (e.g. BENCH_NODE_ARGS=--max-semi-space-size=4).
  const nodeArgs = [...servedNodeFlags(), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const bare = start(
    0,
    process.execPath,
    [...nodeArgs, '--import', 'tsx', path.join(root, 'bench/src/bare-proxy.ts')],
    { UPSTREAM_URL: fakeUrl },
  );
  const bareUrl = `http://127.0.0.1:${await portPrintedBy(bare)}`;
  const gateway = start(
    0,
    process.execPath,
    [...nodeArgs, ...profileArgs, path.join(root, 'server/dist/main.js')],
    {
      PORT: String(GATEWAY_PORT),
      SQLITE_PATH: dbFile,
      SESSION_SECRET: 'bench',
      LOG_LEVEL: 'warn',
      SQL_DSN: '',
    },
  );
  const cleanup = () => {
    gateway.kill('SIGTERM');
    bare.kill('SIGTERM');
    fake.kill('SIGTERM');
  };
  process.on('exit', cleanup);
  const gatewayUrl = `http://127.0.0.1:${GATEWAY_PORT}`;
  await waitFor(`${gatewayUrl}/api/status`);

  // A normal user with quota and a limited token, a channel to the fake upstream.
  const login = await api(gatewayUrl, '', 'POST', '/api/user/login', {
    username: 'root',
    password: '123456',
  });
  const rootCookie = login.cookie;
  await api(gatewayUrl, rootCookie, 'POST', '/api/channel/', {
    type: 1,
    name: 'bench',
    key: 'sk-bench',
    base_url: fakeUrl,
    models: 'gpt-3.5-turbo',
    group: 'default',
  });
  await api(gatewayUrl, rootCookie, 'POST', '/api/user/', { username: 'bench', password: 'benchmark1' });
  const users = await api(gatewayUrl, rootCookie, 'GET', '/api/user/search?keyword=bench');
  const benchUser = (users.json.data as Array<{ id: number; username: string }>).find(
    (u) => u.username === 'bench',
  )!;
  await api(gatewayUrl, rootCookie, 'POST', '/api/topup', {
    user_id: benchUser.id,
    quota: 1_000_000_000_000,
  });
  const userLogin = await api(gatewayUrl, '', 'POST', '/api/user/login', {
    username: 'bench',
    password: 'benchmark1',
  });
  const token = await api(gatewayUrl, userLogin.cookie, 'POST', '/api/token/', {
    name: 'bench',
    remain_quota: 900_000_000_000,
    expired_time: -1,
  });
  const key = (token.json.data as { key: string }).key;

  const body = (stream: boolean) =>
    JSON.stringify({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'Hello, benchmark!' }],
      stream,
    });
  const rows: Array<{
    label: string;
    direct: LoadResult;
    bare: LoadResult;
    gateway: LoadResult;
    cpuPerRequest: number;
  }> = [];
  for (const stream of [false, true]) {
    for (const concurrency of [1, 64]) {
      if (!CASES.includes(`${stream ? 'stream' : 'plain'}:${concurrency}`)) continue;
      const common = {
        path: '/v1/chat/completions',
        body: body(stream),
        concurrency,
        seconds: SECONDS,
        warmupSeconds: WARMUP,
      };
      const upstreamHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk-bench' };
      const direct = await runLoad({ ...common, origin: fakeUrl, headers: upstreamHeaders });
      const viaBare = await runLoad({ ...common, origin: bareUrl, headers: upstreamHeaders });
      const cpuBefore = cpuMsOf(gateway.pid!);
      const viaGateway = await runLoad({
        ...common,
        origin: gatewayUrl,
        headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}` },
      });
      // CPU over warm-up and measurement, per request: the warm-up ran at about the same rate.
      const cpuPerRequest =
        (cpuMsOf(gateway.pid!) - cpuBefore) / (viaGateway.requests * (1 + WARMUP / SECONDS));
      rows.push({
        label: `${stream ? 'stream    ' : 'non-stream'} c=${String(concurrency).padEnd(2)}`,
        direct,
        bare: viaBare,
        gateway: viaGateway,
        cpuPerRequest,
      });
    }
  }

  console.log('\nRelay overhead (gateway on 1 core; upstream and load on the other; billing + logs on)');
  console.log(
    'case              | direct rps | gateway rps | ratio | p50 direct | p50 gateway | +p50 ms | p99 gateway | ttfb direct | ttfb gateway | cpu ms/req | errors',
  );
  for (const { label, direct, gateway: g, cpuPerRequest } of rows) {
    console.log(
      `${label}     |${format(direct.rps, 0)}   |${format(g.rps, 0)}    |${format(g.rps / direct.rps).slice(4)} |${format(direct.p50, 3)}   |${format(g.p50, 3)}    |${format(g.p50 - direct.p50, 3)}|${format(g.p99, 3)}    |${format(direct.ttfbP50, 3)}    |${format(g.ttfbP50, 3)}     |${format(cpuPerRequest, 3)}          | ${g.errors}`,
    );
  }
  // The same cases through the bare proxy: what any Node proxy on this core pays today, and what the
  // gateway's checks, billing and logs add on top (time to first byte, which for non-streaming
  // answers is the whole answer).
  console.log("\nBaseline: a bare Node proxy on the gateway's core (node:http + undici, nothing else)");
  console.log(
    'case              | bare rps | bare ratio | gateway / bare | +ttfb bare ms | +ttfb gateway ms | gateway - bare ms',
  );
  for (const { label, direct, bare: b, gateway: g } of rows) {
    const addedBare = b.ttfbP50 - direct.ttfbP50;
    const addedGateway = g.ttfbP50 - direct.ttfbP50;
    console.log(
      `${label}     |${format(b.rps, 0)} |${format(b.rps / direct.rps)}   |${format(g.rps / b.rps)}       |${format(addedBare, 3)}      |${format(addedGateway, 3)}         |${format(addedGateway - addedBare, 3)}`,
    );
  }

  const pid = gateway.pid!;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssOf(pid).rss), 1000);
  const soak = await runLoad({
    origin: gatewayUrl,
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}` },
    body: body(true),
    concurrency: 64,
    seconds: SOAK_SECONDS,
    warmupSeconds: 0,
  });
  clearInterval(sampler);
  const { peak } = rssOf(pid);
  const tenth = Math.max(1, Math.floor(samples.length / 10));
  const avg = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  console.log(
    `\nSoak: ${SOAK_SECONDS} s streaming at c=64, ${soak.requests} requests (${soak.rps.toFixed(0)}/s), ${soak.errors} errors`,
  );
  console.log(
    `Gateway RSS: first 10% avg ${avg(samples.slice(0, tenth)).toFixed(1)} MB, last 10% avg ${avg(samples.slice(-tenth)).toFixed(1)} MB, peak ${peak.toFixed(1)} MB`,
  );

  // Every relayed request must have been billed once.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const db = new Database(dbFile, { readonly: true });
  const logs = db
    .prepare('select count(*) as n, coalesce(sum(quota), 0) as q from logs where type = 2')
    .get() as { n: number; q: number };
  const user = db.prepare('select used_quota, request_count from users where id = ?').get(benchUser.id) as {
    used_quota: number;
    request_count: number;
  };
  db.close();
  console.log(
    `Billing check: ${logs.n} consume logs, ${user.request_count} counted requests, used quota ${user.used_quota} = sum of logs ${logs.q}: ${user.used_quota === logs.q && logs.n === user.request_count ? 'OK' : 'MISMATCH'}`,
  );
  // The gateway writes its profile on a clean shutdown: wait for it.
  const gatewayExited = new Promise((resolve) => gateway.once('exit', resolve));
  cleanup();
  await gatewayExited;
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
