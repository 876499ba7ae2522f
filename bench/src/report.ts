// The tables `npm run bench` prints: each case's medians per target, then cost per call, then each
// gateway against the ledger floor on its database.
import type { BenchCase } from './settings';
import type { Summary } from './summary';
import { fixed, printTable } from './table';
import { BARE, DIRECT, floorFor } from './target-names';

/** One case's medians, per target in the order measured (direct first, then the bare proxy). */
export interface CaseResult {
  benchCase: BenchCase;
  summaries: Map<string, Summary>;
}

/** A gateway's summary beside the ledger floor's on its database, when both ran. */
export function withFloor(summaries: Map<string, Summary>, target: string): [Summary, Summary] | undefined {
  const floor = floorFor(target);
  const g = summaries.get(target);
  const f = floor === undefined ? undefined : summaries.get(floor);
  return g && f ? [g, f] : undefined;
}

const ratio = (value: number, base: number | undefined) => (base ? fixed(value / base) : '–');

export function printLatency(results: CaseResult[], heading: string): void {
  const rows = results.flatMap(({ benchCase, summaries }) =>
    [...summaries].map(([name, s]) => [
      benchCase.label,
      name,
      fixed(s.rps, 0),
      ratio(s.rps, summaries.get(DIRECT)?.rps),
      ratio(s.rps, summaries.get(BARE)?.rps),
      ratio(s.rps, summaries.get(floorFor(name) ?? '')?.rps),
      fixed(s.p50, 3),
      fixed(s.p99, 3),
      fixed(s.ttfbP50, 3),
      fixed(s.ttfbP99, 3),
      name === DIRECT ? '–' : fixed(s.addedP50, 3),
      name === DIRECT ? '–' : fixed(s.addedP99, 3),
      name === DIRECT ? '–' : fixed(s.addedTtfbP50, 3),
      name === DIRECT ? '–' : fixed(s.addedTtfbP99, 3),
      String(s.errors),
    ]),
  );
  printTable(
    `${heading}\nlatency in ms; "first byte" is the first event of a stream; "+" = minus direct in the same repeat`,
    [
      'case',
      'target',
      'rps',
      '× direct',
      '× bare',
      '× floor',
      'p50',
      'p99',
      'first byte p50',
      'first byte p99',
      '+p50',
      '+p99',
      '+first byte p50',
      '+first byte p99',
      'errors',
    ],
    rows,
    2,
  );
}

export function printCost(results: CaseResult[], resolutionMs: number): void {
  const rows = results.flatMap(({ benchCase, summaries }) =>
    [...summaries]
      .filter(([name]) => name !== DIRECT)
      .map(([name, s]) => [
        benchCase.label,
        name,
        fixed(s.cpuUsPerCall, 0),
        ratio(s.cpuUsPerCall ?? Number.NaN, summaries.get(BARE)?.cpuUsPerCall),
        ratio(s.cpuUsPerCall ?? Number.NaN, summaries.get(floorFor(name) ?? '')?.cpuUsPerCall),
        fixed(s.mainThreadUsPerCall, 0),
        fixed((s.cpuUsPerCall ?? Number.NaN) - (s.mainThreadUsPerCall ?? Number.NaN), 0),
        fixed(s.loopDelay?.p50, 2),
        fixed(s.loopDelay?.p99, 2),
        fixed(s.loopDelay?.max, 2),
        String(s.loopDelay?.processes ?? '–'),
      ]),
  );
  printTable(
    `Cost per call and event-loop delay (medians; CPU over every thread, then its main threads' part and the other threads' (V8's helpers, libuv, workers); loop delay = how late a ${resolutionMs} ms timer ran, worst process)`,
    [
      'case',
      'target',
      'CPU µs/call',
      '× bare',
      '× floor',
      'main thread',
      'other threads',
      'loop delay p50 ms',
      'p99 ms',
      'max ms',
      'processes',
    ],
    rows,
    2,
  );
}

/**
 * Each gateway against the ledger floor on its database: what the gateway does beyond durable books
 * (CPU per call, throughput, p99 added: the whole answer, or a stream's first event).
 */
export function printFloor(results: CaseResult[]): void {
  const rows = results.flatMap(({ benchCase, summaries }) =>
    [...summaries.keys()].flatMap((name) => {
      const both = withFloor(summaries, name);
      if (!both) return [];
      const [g, floor] = both;
      const added = (s: Summary) => (benchCase.stream ? s.addedTtfbP99 : s.addedP99);
      return [
        [
          benchCase.label,
          name,
          floorFor(name)!,
          fixed(floor.cpuUsPerCall, 0),
          fixed(g.cpuUsPerCall, 0),
          ratio(g.cpuUsPerCall ?? Number.NaN, floor.cpuUsPerCall),
          fixed(floor.rps, 0),
          fixed(g.rps, 0),
          ratio(g.rps, floor.rps),
          fixed(added(floor), 3),
          fixed(added(g), 3),
          ratio(added(g), added(floor)),
        ],
      ];
    }),
  );
  if (rows.length === 0) return;
  printTable(
    'The gateway against the ledger floor on the same database (medians; p99 added in ms, first event for streams)',
    [
      'case',
      'gateway',
      'floor',
      'CPU µs floor',
      'gateway',
      '× floor',
      'rps floor',
      'gateway',
      '× floor',
      '+p99 floor',
      'gateway',
      '× floor',
    ],
    rows,
    3,
  );
}
