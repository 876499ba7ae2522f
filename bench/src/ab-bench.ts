// Two (or more) built servers back to back: BENCH_AB=a/dist/main.js,b/dist/main.js (a server may carry
// node flags after `|`). Each repeat starts every server afresh on its own database (the order
// alternating between repeats), measures the selected cases pinned like `npm run bench`, and the
// medians follow. A change that costs or saves 10 % shows here where separate runs minutes apart
// differ by more on a shared machine. See docs/benchmarks.md.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from './bench-database';
import { measure, type Run, warmUp } from './measure';
import {
  buildBenchServers,
  ensureServerBuilt,
  LOAD_CORE,
  pin,
  portPrintedBy,
  SERVERS_CORE,
  start,
} from './processes';
import { nodeArgsForServers, startGateway, stop } from './servers';
import { selectedCases, settings } from './settings';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** PostgreSQL behind the delay proxy (on the load's core) when BENCH_PG_DELAY_MS asks for it. */
async function farDatabase(proxyFile: string): Promise<{ url: string; proxy: ChildProcess } | undefined> {
  if (settings.postgresDelayMs <= 0) return undefined;
  const url = new URL(settings.postgresAdminUrl);
  const target = `${url.hostname}:${url.port || '5432'}`;
  const proxy = start(LOAD_CORE, process.execPath, [proxyFile, target, String(settings.postgresDelayMs)], {});
  url.host = `127.0.0.1:${await portPrintedBy(proxy)}`;
  console.log(
    `PostgreSQL through a proxy holding each chunk ${settings.postgresDelayMs} ms each way (${url.host})`,
  );
  return { url: url.href, proxy };
}

async function main(): Promise<void> {
  const builds = (process.env.BENCH_AB ?? '').split(',').filter(Boolean);
  if (builds.length < 2)
    throw new Error('BENCH_AB: name two built servers, e.g. old/server/dist/main.js,server/dist/main.js');
  ensureServerBuilt();
  const files = await buildBenchServers();
  pin(process.pid, LOAD_CORE);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-ab-'));
  const fake = start(LOAD_CORE, process.execPath, [files.fakeUpstream], {});
  const kind = settings.databases[0] ?? 'sqlite';
  let far: Awaited<ReturnType<typeof farDatabase>>;
  const runs = new Map<string, Run[]>();
  try {
    far = await farDatabase(files.delayProxy);
    const upstreamUrl = `http://127.0.0.1:${await portPrintedBy(fake)}`;
    const window = { seconds: settings.seconds, warmupSeconds: settings.warmupSeconds };
    for (let repeat = 1; repeat <= settings.repeats; repeat++) {
      for (const build of repeat % 2 === 1 ? builds : [...builds].reverse()) {
        const [entry = '', ...flags] = build.split('|');
        const database = await createBenchDatabase(kind, {
          dir,
          postgresAdminUrl: far?.url ?? settings.postgresAdminUrl,
          name: `ab${repeat}_${builds.indexOf(build)}`,
        });
        const gateway = await startGateway(build, database, upstreamUrl, {
          // npm runs the script in bench/: a relative path is the caller's (INIT_CWD).
          entry: path.resolve(process.env.INIT_CWD ?? process.cwd(), entry),
          cores: SERVERS_CORE,
          nodeArgs: nodeArgsForServers([...settings.nodeArgs, ...flags], undefined),
          env: {},
        });
        try {
          await warmUp(gateway, settings.jitWarmupSeconds);
          for (const benchCase of selectedCases()) {
            const run = await measure(gateway, benchCase, window, undefined);
            const key = `${benchCase.label} | ${build}`;
            runs.set(key, [...(runs.get(key) ?? []), run]);
            console.log(
              `  #${repeat} ${key}: ${run.load.rps.toFixed(0)} rps, ${run.cpuUsPerCall?.toFixed(0)} µs/call ` +
                `(main thread ${run.mainThreadUsPerCall?.toFixed(0)})`,
            );
          }
        } finally {
          await stop(gateway.process);
          await database.drop();
        }
      }
    }
  } finally {
    await stop(fake);
    if (far) await stop(far.proxy);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nMedians of ${settings.repeats} × ${settings.seconds} s on ${kind} (gateways on core ${SERVERS_CORE})`,
  );
  console.log('case | server | rps | CPU µs/call | main thread | p99 ms');
  for (const [key, list] of runs) {
    const cpu = median(list.map((run) => run.cpuUsPerCall ?? 0));
    const mainThread = median(list.map((run) => run.mainThreadUsPerCall ?? 0));
    const rps = median(list.map((run) => run.load.rps));
    const p99 = median(list.map((run) => run.load.p99));
    console.log(
      `${key} | ${rps.toFixed(0)} | ${cpu.toFixed(0)} | ${mainThread.toFixed(0)} | ${p99.toFixed(2)}`,
    );
  }
}

main()
  .then(() => process.exit())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
