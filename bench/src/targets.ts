// The performance targets, against the ledger floor on the gateway's database measured in the same run:
// one line each, with the measured value, the limit, whether it holds, and the same figure against the
// bare proxy (no limit: the bare proxy shows what Node alone costs). The one home of the factors.
import type { CaseResult } from './report';
import type { Summary } from './summary';
import { fixed, printTable } from './table';
import { BARE, floorFor } from './target-names';

export interface Check {
  target: string;
  measured: string;
  limit: string;
  /** undefined: cannot tell (the floor did not run, or its figure makes no limit, e.g. p99 added ≤ 0). */
  ok: boolean | undefined;
  /** The same figure against the bare proxy's, when it ran. */
  bare?: string;
}

export interface Memory {
  /** Peak RSS (MiB) after the cases, before the soak, by target: the bare proxy, the floors, the gateways. */
  peaks: Map<string, number>;
  /**
   * RSS (MiB) averaged over the soak's first and last tenth, by target (the first gateway and the floor
   * on its database), when the soak ran.
   */
  soaks?: Map<string, { firstTenth: number; lastTenth: number }>;
}

/** A limit: `by` × the reference (op ×), or the reference + `by` (op +); the value at most or at least that. */
interface Rule {
  bound: '≤' | '≥';
  op: '×' | '+';
  by: number;
  unit: string;
  digits: number;
}

const CPU: Rule = { bound: '≤', op: '×', by: 1.3, unit: 'µs', digits: 0 };
const THROUGHPUT: Rule = { bound: '≥', op: '×', by: 0.8, unit: 'rps', digits: 0 };
const P99_ADDED: Rule = { bound: '≤', op: '×', by: 2, unit: 'ms', digits: 2 };
const PEAK_RSS: Rule = { bound: '≤', op: '+', by: 30, unit: 'MiB', digits: 1 };
/** How much more the gateway's RSS may grow over the soak than the floor's and still count as flat. */
const SOAK_GROWTH: Rule = { bound: '≤', op: '+', by: 5, unit: 'MiB', digits: 1 };

/** The measured figure, the one the limit is computed from, and the bare proxy's (information). */
interface Figures {
  value: number;
  reference: number | undefined;
  bare?: number | undefined;
}

const known = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);

/** One line: `value` against the rule's limit from `reference` (`?` when that is not above 0). */
function line(target: string, { value, reference, bare }: Figures, rule: Rule): Check {
  const { bound, op, by, unit, digits } = rule;
  const apply = (base: number) => (op === '×' ? by * base : base + by);
  const limit = known(reference) && (op === '+' || reference > 0) ? apply(reference) : undefined;
  const relation = (base: number | undefined) =>
    op === '×' ? `${by} × ${fixed(base, digits)}` : `${fixed(base, digits)} + ${by}`;
  const against = (base: number) =>
    op === '×'
      ? `${fixed(value / base)} × ${fixed(base, digits)}`
      : `${fixed(base, digits)} + ${fixed(value - base, digits)}`;
  return {
    target,
    measured: `${fixed(value, digits)} ${unit}`,
    limit: `${bound} ${relation(reference)}${limit === undefined ? '' : ` = ${fixed(limit, digits)}`} ${unit}`,
    ok: limit === undefined || !known(value) ? undefined : bound === '≤' ? value <= limit : value >= limit,
    bare: known(bare) && bare > 0 ? `${against(bare)} ${unit}` : undefined,
  };
}

/** The gateway's figure, the ledger floor's on its database and the bare proxy's; none if the gateway did not run. */
function figures<T>(values: Map<string, T>, gateway: string, pick: (of: T) => number | undefined) {
  const of = (name: string | undefined) => {
    const found = name === undefined ? undefined : values.get(name);
    return found === undefined ? undefined : pick(found);
  };
  const value = of(gateway);
  return value === undefined ? undefined : { value, reference: of(floorFor(gateway)), bare: of(BARE) };
}

/** A case's line for one figure of its summaries. */
function caseLine(
  result: CaseResult,
  gateway: string,
  what: string,
  pick: (s: Summary) => number | undefined,
  rule: Rule,
): Check[] {
  const found = figures(result.summaries, gateway, pick);
  return found ? [line(`${result.benchCase.label}, ${what}, ${gateway}`, found, rule)] : [];
}

/** CPU µs per call ≤ 1.3 × the floor's. */
const cpuChecks = (result: CaseResult, gateway: string) =>
  caseLine(result, gateway, 'CPU per call', (s) => s.cpuUsPerCall, CPU);

/** Throughput ≥ 0.8 × the floor's. */
const throughputChecks = (result: CaseResult, gateway: string) =>
  caseLine(result, gateway, 'throughput', (s) => s.rps, THROUGHPUT);

/** p99 added ≤ 2 × the floor's: the whole answer; for a stream its first event and the whole stream. */
const p99Checks = (result: CaseResult, gateway: string) =>
  result.benchCase.stream
    ? [
        ...caseLine(result, gateway, 'p99 added, first event', (s) => s.addedTtfbP99, P99_ADDED),
        ...caseLine(result, gateway, 'p99 added, whole stream', (s) => s.addedP99, P99_ADDED),
      ]
    : caseLine(result, gateway, 'p99 added', (s) => s.addedP99, P99_ADDED);

/** Peak RSS after the cases ≤ the floor's on the same database + 30 MiB. */
function peakRssChecks(memory: Memory, gateway: string): Check[] {
  const found = figures(memory.peaks, gateway, (peak) => peak);
  return found ? [line(`peak RSS after the cases, ${gateway}`, found, PEAK_RSS)] : [];
}

/** RSS flat over the soak: its growth (last tenth − first) ≤ the floor's over the same soak + 5 MiB. */
function soakChecks(memory: Memory, gateway: string): Check[] {
  const growths = new Map(
    [...(memory.soaks ?? [])].map(([name, soak]) => [name, soak.lastTenth - soak.firstTenth]),
  );
  const found = figures(growths, gateway, (growth) => growth);
  return found ? [line(`RSS growth over the soak (last tenth − first), ${gateway}`, found, SOAK_GROWTH)] : [];
}

/** Every target for every gateway measured; the memory ones when memory was read. */
export function targetChecks(results: CaseResult[], gateways: string[], memory: Memory | undefined): Check[] {
  const perCase = (check: (result: CaseResult, gateway: string) => Check[], gateway: string) =>
    results.flatMap((result) => check(result, gateway));
  return gateways.flatMap((gateway) => [
    ...perCase(cpuChecks, gateway),
    ...perCase(throughputChecks, gateway),
    ...perCase(p99Checks, gateway),
    ...(memory ? [...peakRssChecks(memory, gateway), ...soakChecks(memory, gateway)] : []),
  ]);
}

export function printTargets(results: CaseResult[], gateways: string[], memory: Memory | undefined): void {
  const checks = targetChecks(results, gateways, memory);
  if (checks.length === 0) return;
  printTable(
    'Performance targets (medians, against the ledger floor on the same database, same run)',
    ['target', 'measured', 'limit', 'result', 'against the bare proxy'],
    checks.map((check) => [
      check.target,
      check.measured,
      check.limit,
      check.ok === undefined ? '?' : check.ok ? 'OK' : 'MISS',
      check.bare ?? '–',
    ]),
    4,
  );
}
