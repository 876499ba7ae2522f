// WORKERS=n against WORKERS=m on this machine's cores (`BENCH_WORKERS=1,2`, on `BENCH_WORKERS_DATABASE`): each gateway not pinned, sharing every core with
// the load generator and the fake upstream, as a real host would. CPU per call counts the whole process
// tree (primary and workers).
import type { BenchDatabaseHandle } from './bench-database';
import type { LoopDelayProbes } from './loop-delay';
import { measure, type Run, warmUp } from './measure';
import { machineTicks } from './proc-stats';
import { type Gateway, type ServerOptions, startGateway } from './servers';
import { workerCases } from './settings';
import { median, summarise } from './summary';
import { fixed, printTable } from './table';

export interface WorkersOptions {
  counts: string[];
  /** Named in the table's title. */
  database: string;
  repeats: number;
  window: { seconds: number; warmupSeconds: number };
  /** Unmeasured load each gateway gets after its start (see `warmUp`). */
  jitWarmupSeconds: number;
  upstreamUrl: string;
  server: Omit<ServerOptions, 'cores'>;
  probes: LoopDelayProbes | undefined;
  createDatabase: (name: string) => Promise<BenchDatabaseHandle>;
  progress: (line: string) => void;
}

/** Runs the comparison and prints it; adds the gateways it starts to `started` (for the billing check). */
export async function compareWorkers(options: WorkersOptions, started: Gateway[]): Promise<void> {
  const gateways: Gateway[] = [];
  for (const [i, count] of options.counts.entries()) {
    const database = await options.createDatabase(`workers_${i}`);
    const gateway = await startGateway(`WORKERS=${count}`, database, options.upstreamUrl, {
      ...options.server,
      cores: undefined,
      env: { ...options.server.env, WORKERS: count },
    });
    gateways.push(gateway);
    started.push(gateway);
    await warmUp(gateway, options.jitWarmupSeconds);
  }
  const rows: string[][] = [];
  for (const benchCase of workerCases()) {
    const runs = new Map<Gateway, Run[]>(gateways.map((gateway) => [gateway, []]));
    const machineBusy = new Map<Gateway, number[]>(gateways.map((gateway) => [gateway, []]));
    for (let repeat = 1; repeat <= options.repeats; repeat++) {
      // Alternate the order, so that neither count always runs on the warmer machine.
      const order = repeat % 2 === 1 ? gateways : [...gateways].reverse();
      for (const gateway of order) {
        const before = machineTicks();
        const run = await measure(gateway, benchCase, options.window, options.probes);
        const after = machineTicks();
        runs.get(gateway)!.push(run);
        machineBusy.get(gateway)!.push((after.busy - before.busy) / (after.total - before.total));
        options.progress(`${benchCase.label} #${repeat} ${gateway.name}: ${run.load.rps.toFixed(0)} rps`);
      }
    }
    for (const gateway of gateways) {
      const s = summarise(runs.get(gateway)!);
      rows.push([
        benchCase.label,
        gateway.name,
        String(s.processes ?? '–'),
        fixed(s.rps, 0),
        fixed(s.p99, 3),
        fixed(s.ttfbP99, 3),
        fixed(s.cpuUsPerCall, 0),
        fixed(s.loopDelay?.p99, 2),
        fixed(s.loopDelay?.max, 2),
        `${fixed(median(machineBusy.get(gateway)!) * 100, 0)}%`,
        String(s.errors),
      ]);
    }
  }
  printTable(
    `Workers (${options.database}, gateway not pinned: it shares both cores with the load generator and the upstream; medians of ${options.repeats})`,
    [
      'case',
      'gateway',
      'processes',
      'rps',
      'p99 ms',
      'first byte p99 ms',
      'CPU µs/call (all processes)',
      'loop delay p99 ms',
      'max ms',
      'machine busy',
      'errors',
    ],
    rows,
    2,
  );
}
