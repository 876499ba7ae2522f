// Instructions a call, counted by valgrind's callgrind: the ledger floor and one or more builds of the
// gateway on one database, each run under callgrind with counting off while it warms up, on for a
// fixed number of calls, then dumped thread by thread and sorted into where the instructions ran (the
// compiled JavaScript, V8's builtins and runtime, its compilers and collector, SQLite, Node). Unlike CPU
// time, a count does not move with the machine's speed or noise: two builds differ by what they do.
// Usage: `npm run bench:instructions -w bench` (settings: INSTR_* below, BENCH_SERVER for the builds).
import { type ChildProcess, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { servedNodeFlags } from '../../server/test/process/built-server';
import { type BenchDatabaseHandle, createBenchDatabase } from './bench-database';
import { setUpAccount } from './gateway-setup';
import { requestBody } from './measure';
import {
  buildBenchServers,
  ensureServerBuilt,
  freePort,
  portPrintedBy,
  root,
  start,
  waitFor,
} from './processes';
import { startGateway, stop } from './servers';
import type { BenchDatabase } from './settings';
import { printTable } from './table';

export const CATEGORIES = [
  'JavaScript (compiled)',
  'V8 builtins',
  'V8 runtime',
  'compilers',
  'garbage collection',
  'SQLite (and its binding)',
  'Node and libuv',
  'libc',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Where a function of `callgrind_annotate`'s listing (`file:function [object]`) belongs. */
export function categoryOf(entry: string): Category {
  const object = /\[([^\]]*)\]\s*$/.exec(entry)?.[1] ?? '';
  if (object === '???' || /^\?\?\?:0x[0-9a-f]+/.test(entry)) return 'JavaScript (compiled)';
  if (object.includes('better-sqlite3') || object.includes('better_sqlite3'))
    return 'SQLite (and its binding)';
  if (
    /\b(compiler|maglev|turboshaft|interpreter|baseline|wasm)::|Compil|Parser|Scanner|BytecodeGenerator/.test(
      entry,
    )
  )
    return 'compilers';
  if (
    /Marking|Sweeper|Scaveng|Evacuat|heap::|Heap::|MemoryAllocator|cppgc|Worklist|RememberedSet|SlotSet|MemoryChunk|PageMetadata|ObjectCache|VisitRootPointer|IteratePointers/.test(
      entry,
    )
  )
    return 'garbage collection';
  if (/Builtins_/.test(entry)) return 'V8 builtins';
  // By the function's own name: Node's functions take V8's types as parameters.
  const name = entry.slice(entry.indexOf(':') + 1).split('(')[0]!;
  if (/node::|^uv_|llhttp/.test(name)) return 'Node and libuv';
  if (/v8::|napi_|Napi::/.test(name)) return 'V8 runtime';
  if (/libc\.so|ld-linux|libm\.so|libstdc\+\+|libgcc/.test(object)) return 'libc';
  return 'other';
}

/** One function of a listing: its instructions and where they belong; compiled JavaScript as one. */
export interface ListedFunction {
  name: string;
  category: Category;
  instructions: number;
}

/** The JavaScript function compiled at an address, or undefined. */
export type JsNames = (address: number) => string | undefined;

/**
 * The functions of V8's perf map (`--perf-basic-prof`: `<start> <size> <kind>:<name>` a line,
 * hexadecimal), by address. Code V8 frees leaves its line in the map, and the space is used again:
 * of lines whose addresses overlap, the latest is what ran there. JavaScript is named by function
 * and file (relative to `root`), every tier as one; other code (regular expressions, say) by its line.
 */
export function jsNames(perfMap: string, root = ''): JsNames {
  const starts: number[] = [];
  const byStart = new Map<number, { end: number; name: string }>();
  const lines = perfMap.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(lines[index]!);
    if (!match) continue;
    const start = Number.parseInt(match[1]!, 16);
    const end = start + Number.parseInt(match[2]!, 16);
    const at = firstAtOrAfter(starts, start);
    const before = at > 0 ? byStart.get(starts[at - 1]!) : undefined;
    // A later line took these addresses: this code was gone by then.
    if ((before && before.end > start) || (at < starts.length && starts[at]! < end)) continue;
    starts.splice(at, 0, start);
    byStart.set(start, { end, name: codeName(match[3]!, root) });
  }
  return (address) => {
    const at = firstAtOrAfter(starts, address + 1);
    const found = at > 0 ? byStart.get(starts[at - 1]!) : undefined;
    return found && address < found.end ? found.name : undefined;
  };
}

/** The index of the first of the ascending `values` not below `value`. */
function firstAtOrAfter(values: number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A perf map line's code: JavaScript as `function file` (its tier left out), anything else as written. */
function codeName(description: string, root: string): string {
  const js = /^JS:[~^+*]?'?(.*)$/.exec(description);
  if (!js) return description;
  const [fn, url = ''] = js[1]!.split(' ');
  const file = url.replace(/^file:\/\//, '');
  const where = file.startsWith(root) ? file.slice(root.length).replace(/^\//, '') : file;
  return `${fn || '(anonymous)'} ${where}`;
}

/**
 * The functions of `callgrind_annotate --inclusive=no --threshold=100` output; compiled JavaScript as
 * one, or by function with `names`.
 */
export function listing(annotated: string, names?: JsNames): ListedFunction[] {
  const functions = new Map<string, ListedFunction>();
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!match || match[2]!.startsWith('PROGRAM TOTALS')) continue;
    const entry = match[2]!;
    const category = categoryOf(entry);
    const address = /^\?\?\?:0x([0-9a-f]+)/.exec(entry)?.[1];
    const name =
      category === 'JavaScript (compiled)'
        ? ((address && names?.(Number.parseInt(address, 16))) ?? category)
        : entry
            .slice(entry.indexOf(':') + 1)
            .replace(/\s*\[[^\]]*\]\s*$/, '')
            .replaceAll('(anonymous namespace)', '{anonymous}')
            .split('(')[0]!;
    const known = functions.get(name) ?? { name, category, instructions: 0 };
    known.instructions += Number(match[1]!.replaceAll(',', ''));
    functions.set(name, known);
  }
  return [...functions.values()];
}

/** Instructions by category. */
export function categorize(functions: ListedFunction[]): Map<Category, number> {
  const totals = new Map<Category, number>(CATEGORIES.map((category) => [category, 0]));
  for (const { category, instructions } of functions)
    totals.set(category, totals.get(category)! + instructions);
  return totals;
}

const settings = {
  database: (process.env.INSTR_DATABASE ?? 'sqlite') as BenchDatabase,
  /**
   * Calls before counting starts, at concurrency 64: the gateway's code is compiled as it stays after
   * about 45,000 calls (V8's `--trace-opt`), sooner at c=64 than at c=1.
   */
  warmCalls: Number(process.env.INSTR_WARM_CALLS ?? 50_000),
  /**
   * Calls after those, at the counted concurrency, before counting starts: what `npm run bench` warms
   * a case with (BENCH_WARMUP, about 2 s of calls), so that the code this concurrency alone runs (a
   * settlement of one call, say) is counted as compiled and not while it compiles.
   */
  caseWarmCalls: Number(process.env.INSTR_CASE_WARM_CALLS ?? 2_000),
  calls: Number(process.env.INSTR_CALLS ?? 2_000),
  concurrency: Number(process.env.INSTR_CONCURRENCY ?? 1),
  stream: process.env.INSTR_STREAM === '1',
  /** Compiled JavaScript by function (V8's perf map; its code is then never moved): off by default. */
  jsNames: process.env.INSTR_JS_NAMES === '1',
  /** Keeps callgrind's files (and the perf maps) for other views, e.g. `callgrind_annotate --inclusive=yes`. */
  keep: process.env.INSTR_KEEP === '1',
  /** The gateway's builds, comma-separated (default: this repository's). */
  servers: (process.env.BENCH_SERVER ?? path.join(root, 'server/dist/main.js')).split(','),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
};

async function send(url: string, headers: Record<string, string>, count: number, concurrency: number) {
  const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
  let left = count;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const response = await pool.request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers,
          body: requestBody(settings.stream),
        });
        await response.body.text();
        if (response.statusCode !== 200) failed++;
      }
    }),
  );
  await pool.close();
  if (failed) throw new Error(`${failed} of ${count} calls failed`);
}

interface Counted {
  name: string;
  main: Map<Category, number>;
  /** The main thread's functions while counting the calls. */
  mainFunctions: ListedFunction[];
  others: Map<Category, number>;
  /** Instructions over as long as the calls took, without calls: the main thread's and the others'. */
  idle: { main: number; others: number };
}

const annotate = (file: string) =>
  execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });

/**
 * Counts `settings.calls` calls of a server started under callgrind (counting off), then what it runs
 * without calls over as long: its timers and the checkpointer's rounds, which run tens of times more
 * often a call under valgrind than without, and the collector's and compilers' work the calls left.
 */
async function count(
  name: string,
  dumps: string,
  child: ChildProcess,
  url: string,
  headers: Record<string, string>,
): Promise<Counted> {
  console.log(
    `${name}: warming up (${settings.warmCalls} calls, then ${settings.caseWarmCalls} at c=${settings.concurrency}), then counting ${settings.calls}`,
  );
  await send(url, headers, settings.warmCalls, 64);
  await send(url, headers, settings.caseWarmCalls, settings.concurrency);
  const control = (option: string) => spawnSync('callgrind_control', [option, String(child.pid)]);
  control('--instr=on');
  const started = performance.now();
  await send(url, headers, settings.calls, settings.concurrency);
  const busyMs = performance.now() - started;
  // Each dump starts the counts over: part 1 the calls, part 2 as long without.
  control('--dump');
  await new Promise((resolve) => setTimeout(resolve, busyMs));
  control('--dump');
  control('--instr=off');
  await stop(child);
  const perfMap = `/tmp/perf-${child.pid}.map`;
  const names = settings.jsNames ? jsNames(fs.readFileSync(perfMap, 'utf8'), root) : undefined;
  if (settings.jsNames && !settings.keep) fs.rmSync(perfMap);
  // One file a thread and part (`--separate-threads`): cg.<pid>.<part>-<thread>, thread 01 the main one.
  const listed = (n: number, main: boolean) =>
    fs
      .readdirSync(dumps)
      .filter((file) => file.startsWith(`cg.${child.pid}.${n}-`) && file.endsWith('-01') === main)
      .flatMap((file) => listing(annotate(path.join(dumps, file)), names));
  const mainFunctions = listed(1, true);
  console.log(
    `${name}: ${(busyMs / 1000).toFixed(0)} s counting${settings.keep ? ` (files cg.${child.pid}.*)` : ''}`,
  );
  return {
    name,
    main: categorize(mainFunctions),
    mainFunctions,
    others: categorize(listed(1, false)),
    idle: { main: total(categorize(listed(2, true))), others: total(categorize(listed(2, false))) },
  };
}

const total = (map: Map<Category, number>) => [...map.values()].reduce((a, b) => a + b, 0);
const perCall = (value: number) => (value / settings.calls / 1000).toFixed(1);

function print(counted: Counted[]) {
  const [floor] = counted;
  const rows = CATEGORIES.map((category) => [
    category,
    ...counted.flatMap(({ main, others }) => [perCall(main.get(category)!), perCall(others.get(category)!)]),
  ]);
  rows.push([
    'all',
    ...counted.flatMap(({ main, others }) => [perCall(total(main)), perCall(total(others))]),
  ]);
  rows.push([
    '× the floor (main, all threads)',
    ...counted.flatMap(({ main, others }) => [
      (total(main) / total(floor!.main)).toFixed(2),
      ((total(main) + total(others)) / (total(floor!.main) + total(floor!.others))).toFixed(2),
    ]),
  ]);
  rows.push([
    "then, as long without calls (a call's worth)",
    ...counted.flatMap(({ idle }) => [perCall(idle.main), perCall(idle.others)]),
  ]);
  printTable(
    `Thousand instructions a call (${settings.database}, ${settings.stream ? 'stream' : 'non-stream'}, c=${settings.concurrency}; ${settings.calls} calls counted after ${settings.warmCalls} and ${settings.caseWarmCalls}): the main thread and the others; the last line apart`,
    ['where', ...counted.flatMap(({ name }) => [`${name} main`, `${name} others`])],
    rows,
  );
  for (const gateway of counted.slice(1)) printDifferences(floor!, gateway);
  if (settings.jsNames) for (const server of counted) printCompiledJs(server);
}

/** The main thread's compiled JavaScript functions that run the most, by name (INSTR_JS_NAMES). */
function printCompiledJs(server: Counted, count = 25) {
  const rows = server.mainFunctions
    .filter((listed) => listed.category === 'JavaScript (compiled)')
    .sort((a, b) => b.instructions - a.instructions)
    .slice(0, count)
    .map(({ name, instructions }) => [name.slice(0, 110), perCall(instructions)]);
  printTable(
    `The main thread's compiled JavaScript that runs the most: ${server.name}, thousand instructions a call`,
    ['function', server.name],
    rows,
    1,
  );
}

/** The main thread's functions that run the most instructions more a call in `gateway` than in `floor`. */
function printDifferences(floor: Counted, gateway: Counted, count = 30) {
  const inFloor = new Map(floor.mainFunctions.map((listed) => [listed.name, listed.instructions]));
  const rows = gateway.mainFunctions
    .map((listed) => ({ ...listed, more: listed.instructions - (inFloor.get(listed.name) ?? 0) }))
    .sort((a, b) => b.more - a.more)
    .slice(0, count)
    .map(({ name, category, instructions, more }) => [
      name.slice(0, 90),
      category,
      perCall(inFloor.get(name) ?? 0),
      perCall(instructions),
      perCall(more),
    ]);
  printTable(
    `The main thread's functions with the most thousand instructions more a call: ${gateway.name} against the floor`,
    ['function', 'where', 'floor', gateway.name, 'more'],
    rows,
    2,
  );
}

async function main() {
  ensureServerBuilt();
  const files = await buildBenchServers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-instructions-'));
  const fake = start(undefined, process.execPath, [files.fakeUpstream], {});
  const upstreamUrl = `http://127.0.0.1:${await portPrintedBy(fake)}`;
  const underCallgrind = [
    '--tool=callgrind',
    '--instr-atstart=no',
    // V8 writes the code it runs: valgrind must see every write to code it has translated.
    '--smc-check=all-non-file',
    '--separate-threads=yes',
    `--log-file=${dir}/valgrind.%p.log`,
    `--callgrind-out-file=${dir}/cg.%p`,
    process.execPath,
    ...servedNodeFlags(),
    ...(settings.jsNames ? ['--perf-basic-prof'] : []),
  ];
  const databases: BenchDatabaseHandle[] = [];
  /** The servers under valgrind: one whose count failed must not outlive the run (nor keep the others). */
  const children: ChildProcess[] = [];
  const underValgrind = (...args: Parameters<typeof start>) => {
    const child = start(...args);
    children.push(child);
    return child;
  };
  const database = async (name: string) => {
    const created = await createBenchDatabase(settings.database, {
      dir,
      postgresAdminUrl: settings.postgresAdminUrl,
      name,
    });
    databases.push(created);
    return created;
  };
  // Side by side: a count does not depend on what else the machine runs.
  const countFloor = async () => {
    const floorDatabase = await database(`${settings.database}_floor`);
    const setup = await startGateway('setup', floorDatabase, upstreamUrl, {
      cores: undefined,
      nodeArgs: servedNodeFlags(),
      env: {},
    });
    await stop(setup.process);
    const floor = underValgrind(undefined, 'valgrind', [...underCallgrind, files.ledgerFloor], {
      ...floorDatabase.env,
      UPSTREAM_URL: upstreamUrl,
    });
    return count('floor', dir, floor, `http://127.0.0.1:${await portPrintedBy(floor)}`, setup.headers);
  };
  const countGateway = async (entry: string, index: number) => {
    const port = await freePort();
    const gatewayDatabase = await database(`${settings.database}_${index}`);
    const child = underValgrind(
      undefined,
      'valgrind',
      [...underCallgrind, entry],
      { ...gatewayDatabase.env, PORT: String(port), SESSION_SECRET: 'bench', LOG_LEVEL: 'warn' },
      'inherit',
    );
    const url = `http://127.0.0.1:${port}`;
    // Under valgrind a server starts tens of times slower: up to five minutes.
    await waitFor(`${url}/api/status`, child, 3000);
    const account = await setUpAccount(url, upstreamUrl);
    return count(settings.servers.length === 1 ? 'gateway' : `gateway ${index + 1}`, dir, child, url, {
      'content-type': 'application/json',
      authorization: `Bearer sk-${account.key}`,
    });
  };
  let counted: Counted[];
  try {
    counted = await Promise.all([countFloor(), ...settings.servers.map(countGateway)]);
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fake.kill('SIGTERM');
    for (const created of databases) await created.drop();
  }
  if (settings.servers.length > 1)
    for (const [index, entry] of settings.servers.entries()) console.log(`gateway ${index + 1}: ${entry}`);
  print(counted);
  if (settings.keep) console.log(`callgrind's files: ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
