// Starting the bench's child processes: pinned to a core when `taskset` is there, plain JavaScript.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** Where a process may run: one core, or anywhere (`undefined`). */
export type Cores = string | undefined;

/** Where the benches pin the servers under test, and the load generator with the fake upstream. */
export const SERVERS_CORE = '0';
export const LOAD_CORE = '1';

/** The children started and still running: ended with the bench, however it ends. */
const running = new Set<ChildProcess>();
let endsChildren = false;

/**
 * Ends the running children when the bench exits, and makes a bench stopped by a signal (Ctrl-C, a
 * terminal closed, `kill`) exit, so that no fake upstream or server is left listening behind it.
 */
function endChildrenWithTheBench(): void {
  if (endsChildren) return;
  endsChildren = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
  }
}

export function start(
  cores: Cores,
  command: string,
  args: string[],
  env: Record<string, string>,
  stdout: 'pipe' | 'inherit' = 'pipe',
): ChildProcess {
  endChildrenWithTheBench();
  const pinned = hasTaskset && cores !== undefined;
  const child = spawn(pinned ? 'taskset' : command, pinned ? ['-c', cores, command, ...args] : args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Moves a running process (all its threads) to other cores. */
export function pin(pid: number, cores: string): void {
  if (hasTaskset) spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

/** The port a child prints as its first line once it listens. */
export const portPrintedBy = (child: ChildProcess) =>
  new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before listening`)));
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
  });

/**
 * A port nobody listens on now. Other benches may run on this machine at the same time: a fixed port
 * could reach their gateway instead of ours.
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Waits until the child answers 200 at url, for at most `tries` tenths of a second; fails as soon as the
 * child exits.
 */
export async function waitFor(url: string, child: ChildProcess, tries = 150): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url}: the server exited`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

export function ensureServerBuilt(): void {
  if (!fs.existsSync(path.join(root, 'server/dist/main.js'))) {
    spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });
  }
}

/**
 * The bench's own servers (fake upstream, bare proxy, ledger floor, loop-delay, call-count and heap probes, delay proxy) as plain JavaScript in
 * bench/dist, so they run without a TypeScript loader: tsx's hooks thread would add to the bare
 * proxy's memory and start-up what the gateway (built JavaScript) does not pay.
 */
export async function buildBenchServers(): Promise<
  Record<
    | 'fakeUpstream'
    | 'bareProxy'
    | 'frameworkProxy'
    | 'ledgerFloor'
    | 'loopDelayProbe'
    | 'callCountProbe'
    | 'promiseCountProbe'
    | 'heapProbe'
    | 'delayProxy',
    string
  >
> {
  const names = {
    fakeUpstream: 'fake-upstream',
    delayProxy: 'delay-proxy',
    bareProxy: 'bare-proxy',
    frameworkProxy: 'framework-proxy',
    ledgerFloor: 'ledger-floor',
    loopDelayProbe: 'loop-delay-probe',
    callCountProbe: 'call-count-probe',
    promiseCountProbe: 'promise-count-probe',
    heapProbe: 'heap-probe',
  };
  const outdir = path.join(root, 'bench/dist');
  await build({
    entryPoints: Object.values(names).map((name) => path.join(root, `bench/src/${name}.ts`)),
    outdir,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    logLevel: 'warning',
  });
  const file = (name: string) => path.join(outdir, `${name}.js`);
  return {
    fakeUpstream: file(names.fakeUpstream),
    delayProxy: file(names.delayProxy),
    bareProxy: file(names.bareProxy),
    frameworkProxy: file(names.frameworkProxy),
    ledgerFloor: file(names.ledgerFloor),
    loopDelayProbe: pathToFileURL(file(names.loopDelayProbe)).href,
    callCountProbe: pathToFileURL(file(names.callCountProbe)).href,
    promiseCountProbe: pathToFileURL(file(names.promiseCountProbe)).href,
    heapProbe: pathToFileURL(file(names.heapProbe)).href,
  };
}
