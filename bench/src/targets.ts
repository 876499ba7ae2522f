// The performance targets, as ratios to the bare proxy measured in the same run: one line each, with the
// measured value, the limit, whether it holds, and the same figure against the ledger floor on the
// gateway's database (no limit: the floor shows what durable books alone cost).
import { type CaseResult, withFloor } from './report';
import type { Summary } from './summary';
import { fixed, printTable } from './table';
import { BARE } from './target-names';

interface Check {
  target: string;
  measured: string;
  limit: string;
  /** undefined: cannot tell (e.g. the bare proxy added nothing measurable). */
  ok: boolean | undefined;
  /** The gateway's figure as a multiple of the ledger floor's, when the floor ran. */
  floor?: string;
}

export interface Memory {
  gatewayPeak: number;
  barePeak: number;
  soakFirstTenth: number;
  soakLastTenth: number;
}

const P99_FACTOR = 2;
const THROUGHPUT_FACTOR = 0.75;
const CPU_FACTOR = 1.4;
const RSS_MARGIN_MIB = 15;
/** How much the soak's last tenth may sit above its first and still count as flat. */
const SOAK_GROWTH_MIB = 5;

function pair(result: CaseResult, gateway: string): [Summary, Summary] | undefined {
  const g = result.summaries.get(gateway);
  const bare = result.summaries.get(BARE);
  return g && bare ? [g, bare] : undefined;
}

/** p99 added ≤ 2 × the bare proxy's: the whole answer, or a stream's first event. */
function p99Checks(results: CaseResult[], gateway: string): Check[] {
  return results.flatMap((result) => {
    const both = pair(result, gateway);
    if (!both) return [];
    const [g, bare] = both;
    const stream = result.benchCase.stream;
    const added = (s: Summary) => (stream ? s.addedTtfbP99 : s.addedP99);
    const limit = P99_FACTOR * added(bare);
    const floor = withFloor(result.summaries, gateway)?.[1];
    return [
      {
        target: `${result.benchCase.label}, p99 added${stream ? ' (first event)' : ''}, ${gateway}`,
        measured: `${fixed(added(g), 2)} ms`,
        limit: `≤ ${P99_FACTOR} × ${fixed(added(bare), 2)} = ${fixed(limit, 2)} ms`,
        ok: added(bare) > 0 ? added(g) <= limit : undefined,
        floor: floor && `${fixed(added(g) / added(floor))} × ${fixed(added(floor), 2)} ms`,
      },
    ];
  });
}

function throughputChecks(results: CaseResult[], gateway: string): Check[] {
  return results
    .filter((result) => result.benchCase.concurrency === 64)
    .flatMap((result) => {
      const both = pair(result, gateway);
      if (!both) return [];
      const [g, bare] = both;
      const floor = withFloor(result.summaries, gateway)?.[1];
      return [
        {
          target: `${result.benchCase.label}, throughput, ${gateway}`,
          measured: `${fixed(g.rps, 0)} rps (${fixed(g.rps / bare.rps)} × bare)`,
          limit: `≥ ${THROUGHPUT_FACTOR} × ${fixed(bare.rps, 0)} = ${fixed(THROUGHPUT_FACTOR * bare.rps, 0)} rps`,
          ok: g.rps >= THROUGHPUT_FACTOR * bare.rps,
          floor: floor && `${fixed(g.rps / floor.rps)} × ${fixed(floor.rps, 0)} rps`,
        },
      ];
    });
}

function cpuChecks(results: CaseResult[], gateway: string): Check[] {
  return results.flatMap((result) => {
    const both = pair(result, gateway);
    if (!both || both[0].cpuUsPerCall === undefined || both[1].cpuUsPerCall === undefined) return [];
    const [g, bare] = both as [Summary & { cpuUsPerCall: number }, Summary & { cpuUsPerCall: number }];
    const floor = withFloor(result.summaries, gateway)?.[1].cpuUsPerCall;
    return [
      {
        target: `${result.benchCase.label}, CPU per call, ${gateway}`,
        measured: `${fixed(g.cpuUsPerCall, 0)} µs (${fixed(g.cpuUsPerCall / bare.cpuUsPerCall)} × bare)`,
        limit: `≤ ${CPU_FACTOR} × ${fixed(bare.cpuUsPerCall, 0)} = ${fixed(CPU_FACTOR * bare.cpuUsPerCall, 0)} µs`,
        ok: g.cpuUsPerCall <= CPU_FACTOR * bare.cpuUsPerCall,
        floor: floor === undefined ? undefined : `${fixed(g.cpuUsPerCall / floor)} × ${fixed(floor, 0)} µs`,
      },
    ];
  });
}

function memoryChecks(memory: Memory, gateway: string): Check[] {
  return [
    {
      target: `peak RSS, ${gateway}`,
      measured: `${fixed(memory.gatewayPeak, 1)} MiB`,
      limit: `≤ ${fixed(memory.barePeak, 1)} + ${RSS_MARGIN_MIB} = ${fixed(memory.barePeak + RSS_MARGIN_MIB, 1)} MiB`,
      ok: memory.gatewayPeak <= memory.barePeak + RSS_MARGIN_MIB,
    },
    {
      target: `RSS flat over the soak (last tenth vs first), ${gateway}`,
      measured: `${fixed(memory.soakLastTenth, 1)} MiB`,
      limit: `≤ ${fixed(memory.soakFirstTenth, 1)} + ${SOAK_GROWTH_MIB} MiB`,
      ok: memory.soakLastTenth <= memory.soakFirstTenth + SOAK_GROWTH_MIB,
    },
  ];
}

/**
 * The main gateway (SQLite when run) gets every target; the others (PostgreSQL) the p99 ones. Memory is
 * checked when the soak ran.
 */
export function printTargets(
  results: CaseResult[],
  mainGateway: string,
  otherGateways: string[],
  memory: Memory | undefined,
): void {
  const checks = [
    ...p99Checks(results, mainGateway),
    ...throughputChecks(results, mainGateway),
    ...cpuChecks(results, mainGateway),
    ...(memory ? memoryChecks(memory, mainGateway) : []),
    ...otherGateways.flatMap((gateway) => p99Checks(results, gateway)),
  ];
  printTable(
    'Performance targets (medians, against the bare proxy of the same run)',
    ['target', 'measured', 'limit', 'result', 'against the ledger floor'],
    checks.map((check) => [
      check.target,
      check.measured,
      check.limit,
      check.ok === undefined ? '?' : check.ok ? 'OK' : 'MISS',
      check.floor ?? '–',
    ]),
    4,
  );
}
