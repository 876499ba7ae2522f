// WORKERS=n against WORKERS=m on this machine's cores: each gateway not pinned, sharing every core with
// the load generator and the fake upstream, as a real host would. CPU per call counts the whole process
// tree (primary and workers).
import type { BenchDatabaseHandle } from './bench-database';
import type { LoopDelayProbes } from './loop-delay';
import { measure, type Run } from './measure';
import { type Gateway, type ServerOptions, startGateway } from './servers';
import { workerCases } from './settings';
import { summarise } from './summary';
import { fixed, printTable } from './table';

export interface WorkersOptions {
  counts: string[];
  repeats: number;
  window: { seconds: number; warmupSeconds: number };
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
  }
  const rows: string[][] = [];
  for (const benchCase of workerCases()) {
    const runs = new Map<Gateway, Run[]>(gateways.map((gateway) => [gateway, []]));
    for (let repeat = 1; repeat <= options.repeats; repeat++) {
      for (const gateway of gateways) {
        const run = await measure(gateway, benchCase, options.window, options.probes);
        runs.get(gateway)!.push(run);
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
        String(s.errors),
      ]);
    }
  }
  printTable(
    `Workers (SQLite, gateway not pinned: it shares both cores with the load generator and the upstream; medians of ${options.repeats})`,
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
      'errors',
    ],
    rows,
    2,
  );
}
