// Medians over a case's repeats. "Added" figures are the target's percentile minus the direct run's of
// the same repeat (the runs of one repeat are back to back), then the median of those.
import type { Run } from './measure';

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  ttfbP50: number;
  ttfbP99: number;
  addedP50: number;
  addedP99: number;
  addedTtfbP50: number;
  addedTtfbP99: number;
  cpuUsPerCall?: number;
  mainThreadUsPerCall?: number;
  loopDelay?: { p50: number; p99: number; max: number; processes: number };
  processes?: number;
  requests: number;
  errors: number;
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const defined = <T>(values: Array<T | undefined>): T[] => values.filter((value) => value !== undefined);

const medianOf = (values: Array<number | undefined>) => {
  const present = defined(values);
  return present.length === 0 ? undefined : median(present);
};

/**
 * The medians of a target's runs; `direct[i]` is the direct run of the same repeat as `runs[i]`
 * (without direct runs, nothing is "added").
 */
export function summarise(runs: Run[], direct?: Run[]): Summary {
  const of = (pick: (run: Run) => number) => median(runs.map(pick));
  const added = (pick: (run: Run) => number) =>
    direct ? median(runs.map((run, i) => pick(run) - pick(direct[i]!))) : Number.NaN;
  const delays = defined(runs.map((run) => run.loopDelay));
  return {
    rps: of((run) => run.load.rps),
    p50: of((run) => run.load.p50),
    p99: of((run) => run.load.p99),
    ttfbP50: of((run) => run.load.ttfbP50),
    ttfbP99: of((run) => run.load.ttfbP99),
    addedP50: added((run) => run.load.p50),
    addedP99: added((run) => run.load.p99),
    addedTtfbP50: added((run) => run.load.ttfbP50),
    addedTtfbP99: added((run) => run.load.ttfbP99),
    cpuUsPerCall: medianOf(runs.map((run) => run.cpuUsPerCall)),
    mainThreadUsPerCall: medianOf(runs.map((run) => run.mainThreadUsPerCall)),
    loopDelay:
      delays.length === 0
        ? undefined
        : {
            p50: median(delays.map((delay) => delay.p50)),
            p99: median(delays.map((delay) => delay.p99)),
            max: median(delays.map((delay) => delay.max)),
            processes: Math.max(...delays.map((delay) => delay.processes)),
          },
    processes: medianOf(runs.map((run) => run.processes)),
    requests: runs.reduce((sum, run) => sum + run.load.requests, 0),
    errors: runs.reduce((sum, run) => sum + run.load.errors, 0),
  };
}
