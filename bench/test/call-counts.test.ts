// The call-count probe against a real node:http server: between two signals it counts each function's
// calls (and nothing before the first), and the summary finds the requests and the functions that run
// for at least every other one.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { CallCounts } from '../src/call-count-probe';
import { summarize } from '../src/call-counts';
import { buildBenchServers } from '../src/processes';

const BEFORE = 3;
const REQUESTS = 10;

// Each request calls `twice` twice and `once` once; `rarely` runs for requests 4 to 7 only.
const server = `
import http from 'node:http';
let served = 0;
function twice() { return 2; }
function once() { return 1; }
function rarely() { return 0; }
const server = http.createServer((req, res) => {
  served += 1;
  const sum = twice() + twice() + once() + (served > 3 && served <= 7 ? rarely() : 0);
  res.end(String(sum));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

let dir: string;
let child: ChildProcess;
let port: number;

const taken = () =>
  fs
    .readdirSync(path.join(dir, 'counts'))
    .filter((name) => name.endsWith('.json'))
    .sort();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-call-counts-test-'));
  fs.mkdirSync(path.join(dir, 'counts'));
  fs.writeFileSync(path.join(dir, 'server.mjs'), server);
  const { callCountProbe } = await buildBenchServers();
  child = spawn(process.execPath, ['--import', callCountProbe, path.join(dir, 'server.mjs')], {
    env: { ...process.env, BENCH_CALL_COUNTS_DIR: path.join(dir, 'counts') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    child.once('exit', () => reject(new Error('the server exited')));
  });
});

afterAll(() => {
  child?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

const serve = async (requests: number) => {
  for (let request = 0; request < requests; request++) {
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('5');
  }
};

it('counts the calls between two signals and the functions every other request runs', async () => {
  await serve(BEFORE);
  child.kill('SIGUSR2');
  await vi.waitFor(() => expect(taken()).toHaveLength(1), { timeout: 10_000 });
  await serve(REQUESTS);
  child.kill('SIGUSR2');
  await vi.waitFor(() => expect(taken()).toHaveLength(2), { timeout: 10_000 });

  const counts = JSON.parse(fs.readFileSync(path.join(dir, 'counts', taken()[1]!), 'utf8')) as CallCounts;
  const calls = (name: string) =>
    counts.functions.filter(([, called, where]) => called === name && where.includes('server.mjs'));
  expect(calls('twice').map(([count]) => count)).toEqual([2 * REQUESTS]);
  expect(calls('once').map(([count]) => count)).toEqual([REQUESTS]);
  expect(calls('rarely').map(([count]) => count)).toEqual([4]);

  const summary = summarize(counts);
  expect(summary.requests).toBe(REQUESTS);
  // The request handler, twice and once; not rarely (4 requests of 10).
  expect(summary.functions.own).toBe(3);
  expect(summary.ownScript).toBe('server.mjs');
  expect(summary.functions.node).toBeGreaterThan(10);
  expect(summary.callsPerRequest).toBeGreaterThan(4);
});
