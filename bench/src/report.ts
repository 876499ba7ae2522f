// The tables `npm run bench` prints: each case's medians per target, then cost per call.
import type { BenchCase } from './settings';
import type { Summary } from './summary';
import { fixed, printTable } from './table';

/** One case's medians, per target in the order measured (direct first, then the bare proxy). */
export interface CaseResult {
  benchCase: BenchCase;
  summaries: Map<string, Summary>;
}

export const DIRECT = 'direct';
export const BARE = 'bare proxy';

const ratio = (value: number, base: number | undefined) => (base ? fixed(value / base) : '–');

export function printLatency(results: CaseResult[], heading: string): void {
  const rows = results.flatMap(({ benchCase, summaries }) =>
    [...summaries].map(([name, s]) => [
      benchCase.label,
      name,
      fixed(s.rps, 0),
      ratio(s.rps, summaries.get(DIRECT)?.rps),
      ratio(s.rps, summaries.get(BARE)?.rps),
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
        fixed(s.loopDelay?.p50, 2),
        fixed(s.loopDelay?.p99, 2),
        fixed(s.loopDelay?.max, 2),
        String(s.loopDelay?.processes ?? '–'),
      ]),
  );
  printTable(
    `Cost per call and event-loop delay (medians; loop delay = how late a ${resolutionMs} ms timer ran, worst process)`,
    ['case', 'target', 'CPU µs/call', '× bare', 'loop delay p50 ms', 'p99 ms', 'max ms', 'processes'],
    rows,
    2,
  );
}
