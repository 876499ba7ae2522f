// Relay overhead benchmark: a fake upstream, a bare Node proxy, and the ledger floor and the gateway on
// each database, on loopback; the servers under test share core 0, the fake upstream and the load generator core 1.
// Billing, key checks and consumption logs stay on. Every case runs BENCH_REPEATS times, the targets
// interleaved, and the tables show medians. See docs/benchmarks.md.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchDatabaseHandle, createBenchDatabase } from './bench-database';
import { floorBooks, gatewayBooks } from './books';
import { LoopDelayProbes } from './loop-delay';
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
import { type CaseResult, printCost, printFloor, printLatency } from './report';
import {
  type Gateway,
  type LedgerFloor,
  nodeArgsForServers,
  startBareProxy,
  startGateway,
  startLedgerFloor,
  stop,
  type Target,
  upstreamHeaders,
} from './servers';
import { estimatedSeconds, selectedCases, settings } from './settings';
import { measureMemory } from './soak';
import { summarise } from './summary';
import { DIRECT, gatewayName } from './target-names';
import { printTargets } from './targets';
import { compareWorkers } from './workers-compare';

const progress = (line: string) => console.log(`  ${line}`);

async function measureCases(targets: Target[], probes: LoopDelayProbes | undefined): Promise<CaseResult[]> {
  const window = { seconds: settings.seconds, warmupSeconds: settings.warmupSeconds };
  const results: CaseResult[] = [];
  for (const benchCase of selectedCases()) {
    const runs = new Map<Target, Run[]>(targets.map((target) => [target, []]));
    for (let repeat = 1; repeat <= settings.repeats; repeat++) {
      for (const target of targets) {
        const run = await measure(target, benchCase, window, probes);
        runs.get(target)!.push(run);
        progress(`${benchCase.label} #${repeat} ${target.name}: ${run.load.rps.toFixed(0)} rps`);
      }
    }
    const direct = runs.get(targets[0]!)!;
    results.push({
      benchCase,
      summaries: new Map(targets.map((target) => [target.name, summarise(runs.get(target)!, direct)])),
    });
  }
  return results;
}

/** The books of every gateway, then of every floor against the gateway on its database. */
async function checkBooks(gateways: Gateway[], floors: LedgerFloor[]): Promise<void> {
  const byKind = new Map<string, Awaited<ReturnType<BenchDatabaseHandle['billing']>>>();
  const verdicts = [];
  for (const gateway of gateways) {
    const billing = await gateway.database.billing(gateway.account.userId);
    byKind.set(gateway.database.kind, billing);
    verdicts.push(gatewayBooks(gateway.name, billing));
  }
  for (const floor of floors) {
    const billing = await floor.database.billing(floor.account.userId);
    verdicts.push(floorBooks(floor.name, billing, byKind.get(floor.database.kind)));
  }
  for (const verdict of verdicts) {
    console.log(verdict.line);
    if (!verdict.ok) process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  const estimate = estimatedSeconds();
  console.log(
    `Relay bench: ${selectedCases().length} cases × ${settings.repeats} repeats × (direct, bare proxy, ledger floor and gateway on ${settings.databases.join(', ')}) × ${settings.warmupSeconds} + ${settings.seconds} s after ${settings.jitWarmupSeconds} s of warm-up a server, soak 2 × ${settings.soakSeconds} s${settings.workers.length ? `, WORKERS ${settings.workers.join(', ')}` : ''}: about ${Math.ceil(estimate / 60)} min`,
  );
  ensureServerBuilt();
  const files = await buildBenchServers();
  pin(process.pid, LOAD_CORE);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-'));
  const probeDir = path.join(dir, 'loop-delay');
  fs.mkdirSync(probeDir);
  const probes = settings.loopDelayResolutionMs > 0 ? new LoopDelayProbes(probeDir) : undefined;
  const children: ChildProcess[] = [];
  const gateways: Gateway[] = [];
  const floors: LedgerFloor[] = [];
  const databases: BenchDatabaseHandle[] = [];
  const createDatabase = async (kind: 'sqlite' | 'postgres', name: string) => {
    const database = await createBenchDatabase(kind, {
      dir,
      postgresAdminUrl: settings.postgresAdminUrl,
      name,
    });
    databases.push(database);
    return database;
  };

  try {
    const fake = start(LOAD_CORE, process.execPath, [files.fakeUpstream], {});
    children.push(fake);
    const upstreamUrl = `http://127.0.0.1:${await portPrintedBy(fake)}`;
    const server = {
      entry: settings.server,
      nodeArgs: nodeArgsForServers(settings.nodeArgs, probes ? files.loopDelayProbe : undefined),
      env: probes?.env(settings.loopDelayResolutionMs) ?? {},
    };
    const profile = settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : [];
    const bare = await startBareProxy(files.bareProxy, upstreamUrl, { ...server, cores: SERVERS_CORE });
    children.push(bare.process!);
    for (const kind of settings.databases) {
      const floorDatabase = await createDatabase(kind, `${kind}_floor`);
      floors.push(
        await startLedgerFloor(files.ledgerFloor, floorDatabase, upstreamUrl, {
          ...server,
          cores: SERVERS_CORE,
        }),
      );
      const database = await createDatabase(kind, kind);
      gateways.push(
        await startGateway(gatewayName(kind), database, upstreamUrl, {
          ...server,
          nodeArgs: [...server.nodeArgs, ...profile],
          cores: SERVERS_CORE,
        }),
      );
    }

    for (const target of [bare, ...floors, ...gateways]) {
      progress(`warming up ${target.name} (${settings.jitWarmupSeconds} s)`);
      await warmUp(target, settings.jitWarmupSeconds);
    }
    const direct: Target = { name: DIRECT, url: upstreamUrl, headers: upstreamHeaders };
    const results = await measureCases([direct, bare, ...floors, ...gateways], probes);
    const medians = `medians of ${settings.repeats} × ${settings.seconds} s after ${settings.warmupSeconds} s warm-up`;
    printLatency(
      results,
      `Relay overhead (${medians}; servers on core ${SERVERS_CORE}, upstream and load on core ${LOAD_CORE}; billing + logs on)`,
    );
    printCost(results, settings.loopDelayResolutionMs);
    printFloor(results);

    const memory = await measureMemory(bare, floors, gateways, settings.soakSeconds);

    if (settings.workers.length > 0) {
      pin(process.pid, '0,1');
      pin(fake.pid!, '0,1');
      await compareWorkers(
        {
          counts: settings.workers,
          database: settings.workersDatabase,
          repeats: settings.repeats,
          window: { seconds: settings.seconds, warmupSeconds: settings.warmupSeconds },
          jitWarmupSeconds: settings.jitWarmupSeconds,
          upstreamUrl,
          server,
          probes,
          createDatabase: (name) => createDatabase(settings.workersDatabase, name),
          progress,
        },
        gateways,
      );
    }

    // Every relayed request must have been billed once: give the last settlements time to commit.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    console.log('');
    await checkBooks(gateways, floors);

    // The gateways of the cases, not those the workers comparison added.
    printTargets(
      results,
      gateways.slice(0, settings.databases.length).map((gateway) => gateway.name),
      memory,
    );
  } finally {
    await Promise.all([
      ...[...gateways, ...floors].map((server) => stop(server.process)),
      ...children.map(stop),
    ]);
    for (const database of databases) await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main()
  .then(() => process.exit())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
