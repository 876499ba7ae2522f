// The loop-delay probe and the process-tree CPU figures against a real node:cluster server: the
// primary and each worker report, a blocked worker shows, a reading starts the histograms over, and
// a child without the probe is never signalled (SIGUSR2 would end it).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LoopDelayProbes } from '../src/loop-delay';
import { cpuMsBetween, cpuSnapshot, processTree } from '../src/proc-stats';
import { buildBenchServers } from '../src/processes';

// Far above what a loaded machine's scheduler delays an idle loop by (110 ms was seen under CI).
const BLOCK_MS = 400;
const RESOLUTION_MS = 5;

// Two workers that each block their loop for BLOCK_MS of CPU time once the test creates `<dir>/block`, and a
// `sleep` child of the primary that carries no probe.
const clusterServer = `
import cluster from 'node:cluster';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
if (cluster.isPrimary) {
  cluster.fork();
  cluster.fork();
  spawn('sleep', ['60'], { stdio: 'ignore' });
} else {
  http.createServer((req, res) => res.end('ok')).listen(0);
  let blocked = false;
  setInterval(() => {
    if (blocked || !fs.existsSync(path.join(process.env.BLOCK_DIR, 'block'))) return;
    blocked = true;
    // Spin for BLOCK_MS of CPU time (wall time would be less CPU on a busy machine).
    const start = process.cpuUsage();
    for (;;) {
      const used = process.cpuUsage(start);
      if (used.user + used.system >= ${BLOCK_MS} * 1000) break;
    }
    setTimeout(() => fs.writeFileSync(path.join(process.env.BLOCK_DIR, 'done' + process.pid), ''), 20);
  }, 10);
}
`;

let dir: string;
let server: ChildProcess;
let probes: LoopDelayProbes;

const probed = () => fs.readdirSync(path.join(dir, 'probes')).filter((name) => name.endsWith('.json')).length;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-probe-test-'));
  fs.mkdirSync(path.join(dir, 'probes'));
  fs.writeFileSync(path.join(dir, 'server.mjs'), clusterServer);
  const { loopDelayProbe } = await buildBenchServers();
  probes = new LoopDelayProbes(path.join(dir, 'probes'));
  server = spawn(process.execPath, ['--import', loopDelayProbe, path.join(dir, 'server.mjs')], {
    env: { ...process.env, ...probes.env(RESOLUTION_MS), BLOCK_DIR: dir },
    stdio: 'inherit',
  });
  while (probed() < 3 || processTree(server.pid!).length < 4) await new Promise((r) => setTimeout(r, 50));
});

afterAll(() => {
  for (const pid of processTree(server.pid!).reverse()) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

it('reads every probed process of a cluster, and the next reading starts from nothing', async () => {
  const tree = processTree(server.pid!);
  const sleeper = tree.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'))!;
  // A reading starts the histograms over, and unlike reset() it waits until every process has.
  await probes.collect(tree);
  const before = cpuSnapshot(tree);
  fs.writeFileSync(path.join(dir, 'block'), '');
  while (fs.readdirSync(dir).filter((name) => name.startsWith('done')).length < 2) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const blocked = await probes.collect(processTree(server.pid!));
  expect(blocked?.processes).toBe(3);
  expect(blocked?.max).toBeGreaterThan(BLOCK_MS * 0.8);
  // Both workers spun for BLOCK_MS on their main threads: the tree's CPU time counts the workers, not
  // only the primary, and so does its main threads' part.
  const cpu = cpuMsBetween(before, cpuSnapshot(processTree(server.pid!)));
  expect(cpu.all).toBeGreaterThan(BLOCK_MS * 1.5);
  expect(cpu.mainThread).toBeGreaterThan(BLOCK_MS * 1.5);
  expect(cpu.mainThread).toBeLessThanOrEqual(cpu.all);

  // The histograms sample on a timer: a few of its periods pass before they are read again.
  await new Promise((resolve) => setTimeout(resolve, RESOLUTION_MS * 4));
  const after = await probes.collect(processTree(server.pid!));
  expect(after?.processes).toBe(3);
  // A histogram not started over would still hold the block: its max never goes down. (A loaded
  // machine can stall the new window too, 243 ms once in a full test run: shorter than the block.)
  expect(after?.max).toBeLessThan(blocked!.max);
  expect(fs.existsSync(`/proc/${sleeper}`)).toBe(true);
});
