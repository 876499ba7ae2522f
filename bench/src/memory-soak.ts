// `npm run bench:memory -w bench`: where a server's memory goes over a long load, to tell a leak from
// a heap filling up. One server, the gateway or (MEMORY_TARGET=floor) the ledger floor, on a fresh
// database (MEMORY_DATABASE: sqlite or postgres), streams at c=64 (or BENCH_CASES's cases in turn)
// for each phase's seconds (MEMORY_PHASES), pinned as in `npm run bench`. Every 5 s a line: RSS,
// anonymous and file-backed, and V8's heap as the preloaded heap probe reads it: committed, resident,
// in use after its last full collection. MEMORY_SNAPSHOTS=1 writes a heap snapshot after each phase
// (its own memory stays in RSS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from './bench-database';
import { runLoad } from './load';
import { requestBody } from './measure';
import { rssOf } from './proc-stats';
import { buildBenchServers, LOAD_CORE, pin, portPrintedBy, SERVERS_CORE, start } from './processes';
import {
  nodeArgsForServers,
  type ServerOptions,
  startGateway,
  startLedgerFloor,
  stop,
  type Target,
} from './servers';
import { type BenchCase, selectedCases, settings } from './settings';

const SAMPLE_MS = 5000;

const target = process.env.MEMORY_TARGET ?? 'gateway';
if (target !== 'gateway' && target !== 'floor') throw new Error('MEMORY_TARGET: gateway or floor');
const kind = process.env.MEMORY_DATABASE ?? 'sqlite';
if (kind !== 'sqlite' && kind !== 'postgres') throw new Error('MEMORY_DATABASE: sqlite or postgres');
const phases = (process.env.MEMORY_PHASES ?? '60,120,120').split(',').map(Number);
if (phases.some((seconds) => !(seconds > 0))) throw new Error('MEMORY_PHASES: seconds, comma-separated');
const snapshots = process.env.MEMORY_SNAPSHOTS === '1';
/** BENCH_CASES's cases one after another in each phase, its seconds shared; streams at c=64 by default. */
const cases: BenchCase[] = process.env.BENCH_CASES
  ? selectedCases()
  : [{ stream: true, concurrency: 64, label: 'stream c=64' }];
if (cases.length === 0) throw new Error('BENCH_CASES: none of plain:1, plain:64, stream:1, stream:64');

/** What the heap probe appends every interval (MiB). */
interface HeapLine {
  seconds: number;
  heapCommitted: number;
  heapResident: number;
  afterFullCollection?: number;
  fullCollections: number;
}

function lastHeapLine(file: string): HeapLine | undefined {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
  const last = lines.at(-1);
  return last ? (JSON.parse(last) as HeapLine) : undefined;
}

/** How long a heap snapshot may take to appear before the run gives up. */
const SNAPSHOT_DEADLINE_MS = 300_000;

/** Asks the server for a heap snapshot (SIGUSR2, `--heapsnapshot-signal`) and waits until it is written. */
async function heapSnapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(fs.readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
  const deadline = Date.now() + SNAPSHOT_DEADLINE_MS;
  for (;;) {
    if (Date.now() > deadline)
      throw new Error(`no heap snapshot in ${dir} after ${SNAPSHOT_DEADLINE_MS / 1000} s`);
    await pause();
    const written = fs.readdirSync(dir).find((name) => !before.has(name) && name.endsWith('.heapsnapshot'));
    if (!written) continue;
    // Node writes the file as it walks the heap: done when its size stops changing.
    let size = -1;
    for (let now = fs.statSync(path.join(dir, written)).size; now !== size; ) {
      size = now;
      await pause();
      now = fs.statSync(path.join(dir, written)).size;
    }
    return path.join(dir, written);
  }
}

const files = await buildBenchServers();
pin(process.pid, LOAD_CORE);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-memory-'));
const fake = start(LOAD_CORE, process.execPath, [files.fakeUpstream], {});
const upstreamUrl = `http://127.0.0.1:${await portPrintedBy(fake)}`;
const database = await createBenchDatabase(kind, {
  dir,
  postgresAdminUrl: settings.postgresAdminUrl,
  name: `memory_${target}`,
});
const options: ServerOptions = {
  entry: settings.server,
  cores: SERVERS_CORE,
  nodeArgs: nodeArgsForServers(
    [...settings.nodeArgs, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`],
    files.heapProbe,
  ),
  env: { BENCH_HEAP_DIR: dir, BENCH_HEAP_EVERY_MS: String(SAMPLE_MS) },
};
const server: Target & { process: NonNullable<Target['process']> } =
  target === 'floor'
    ? await startLedgerFloor(files.ledgerFloor, database, upstreamUrl, options)
    : await startGateway('gateway', database, upstreamUrl, options);
const pid = server.process.pid!;
const heapFile = path.join(dir, `${pid}.jsonl`);
console.log(
  `Memory soak: the ${target} on ${kind}, ${cases.map((benchCase) => benchCase.label).join(' then ')} in each of ${phases.join(' + ')} s${snapshots ? ', a heap snapshot after each phase' : ''}; files in ${dir}`,
);

const columns = ['s', 'RSS', 'anon', 'file', 'heap committed', 'heap resident', 'after full GC', 'full GCs'];
const line = (cells: string[]) =>
  cells.map((cell, at) => cell.padStart(Math.max(6, columns[at]!.length) + 2)).join('');
console.log(
  `MiB; s since the server's start; the heap's figures from the heap probe's last reading\n${line(columns)}`,
);
const sample = () => {
  const { rss, anonymous, file } = rssOf(pid);
  const heap = lastHeapLine(heapFile);
  const mib = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));
  const row = [
    heap ? String(heap.seconds) : '–',
    mib(rss),
    mib(anonymous),
    mib(file),
    mib(heap?.heapCommitted),
    mib(heap?.heapResident),
    mib(heap?.afterFullCollection),
    heap ? String(heap.fullCollections) : '–',
  ];
  console.log(line(row));
};
const sampler = setInterval(sample, SAMPLE_MS);
try {
  for (const [at, seconds] of phases.entries()) {
    for (const benchCase of cases) {
      const load = await runLoad({
        origin: server.url,
        path: '/v1/chat/completions',
        headers: server.headers,
        body: requestBody(benchCase.stream),
        concurrency: benchCase.concurrency,
        seconds: seconds / cases.length,
        warmupSeconds: 0,
      });
      console.log(
        `phase ${at + 1}, ${benchCase.label}: ${seconds / cases.length} s, ${load.requests} calls (${load.rps.toFixed(0)}/s), ${load.errors} errors`,
      );
    }
    // The process's mappings as they stand, to tell which ones grew between phases.
    fs.writeFileSync(path.join(dir, `smaps.${at + 1}`), fs.readFileSync(`/proc/${pid}/smaps`));
    if (snapshots) console.log(`  heap snapshot: ${await heapSnapshot(pid, dir)}`);
  }
} finally {
  clearInterval(sampler);
  await stop(server.process);
  fake.kill();
  await database.drop();
}
