// The performance targets' verdicts on synthetic medians: every gateway against the ledger floor on its own
// database, the limits' edges, a stream's two p99 lines, `?` where the floor makes no limit.
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../src/report';
import type { BenchCase } from '../src/settings';
import type { Summary } from '../src/summary';
import { BARE, floorName, gatewayName } from '../src/target-names';
import { type Check, type Memory, targetChecks } from '../src/targets';

const SQLITE = gatewayName('sqlite');
const PG = gatewayName('postgres');

const summary = (figures: Partial<Summary>): Summary => ({
  rps: 1000,
  p50: 1,
  p99: 2,
  ttfbP50: 1,
  ttfbP99: 2,
  addedP50: 0.5,
  addedP99: 1,
  addedTtfbP50: 0.5,
  addedTtfbP99: 1,
  cpuUsPerCall: 100,
  requests: 1000,
  errors: 0,
  ...figures,
});

const plain64: BenchCase = { stream: false, concurrency: 64, label: 'non-stream c=64' };
const stream1: BenchCase = { stream: true, concurrency: 1, label: 'stream c=1' };

function result(benchCase: BenchCase, summaries: Record<string, Partial<Summary>>): CaseResult {
  return {
    benchCase,
    summaries: new Map(Object.entries(summaries).map(([name, figures]) => [name, summary(figures)])),
  };
}

/** The one check whose target starts with `prefix` and names `gateway`. */
function check(checks: Check[], prefix: string, gateway = SQLITE): Check {
  const found = checks.filter((c) => c.target.startsWith(prefix) && c.target.endsWith(`, ${gateway}`));
  expect(found.map((c) => c.target)).toHaveLength(1);
  return found[0]!;
}

const floorSqlite = floorName('sqlite');
const floorPg = floorName('postgres');

describe('the performance targets against the ledger floor', () => {
  it('holds CPU per call to 1.3 × the floor, and shows × bare as information', () => {
    const at = (cpu: number) =>
      check(
        targetChecks(
          [
            result(plain64, {
              [BARE]: { cpuUsPerCall: 50 },
              [floorSqlite]: {},
              [SQLITE]: { cpuUsPerCall: cpu },
            }),
          ],
          [SQLITE],
          undefined,
        ),
        'non-stream c=64, CPU per call',
      );
    expect(at(129).ok).toBe(true);
    expect(at(131).ok).toBe(false);
    expect(at(131).limit).toBe('≤ 1.3 × 100 = 130 µs');
    expect(at(131).bare).toBe('2.62 × 50 µs');
  });

  it('holds throughput to 0.8 × the floor in every case', () => {
    const checks = (rps: number) =>
      targetChecks(
        [plain64, stream1].map((c) => result(c, { [BARE]: {}, [floorSqlite]: {}, [SQLITE]: { rps } })),
        [SQLITE],
        undefined,
      );
    expect(check(checks(810), 'non-stream c=64, throughput').ok).toBe(true);
    expect(check(checks(790), 'non-stream c=64, throughput').ok).toBe(false);
    expect(check(checks(790), 'stream c=1, throughput').ok).toBe(false);
  });

  it('checks a stream p99 added at its first event and over the whole stream', () => {
    const checks = targetChecks(
      [
        result(stream1, {
          [BARE]: {},
          [floorSqlite]: { addedTtfbP99: 1, addedP99: 3 },
          [SQLITE]: { addedTtfbP99: 1.9, addedP99: 6.5 },
        }),
      ],
      [SQLITE],
      undefined,
    );
    expect(check(checks, 'stream c=1, p99 added, first event').ok).toBe(true);
    const whole = check(checks, 'stream c=1, p99 added, whole stream');
    expect(whole.ok).toBe(false);
    expect(whole.limit).toBe('≤ 2 × 3.00 = 6.00 ms');
    expect(checks.filter((c) => c.target.includes('p99'))).toHaveLength(2);
  });

  it('cannot tell when the floor added no p99 or did not run', () => {
    const checks = targetChecks(
      [result(plain64, { [BARE]: {}, [floorSqlite]: { addedP99: -0.2 }, [SQLITE]: {}, [PG]: {} })],
      [SQLITE, PG],
      undefined,
    );
    expect(check(checks, 'non-stream c=64, p99 added').ok).toBeUndefined();
    expect(check(checks, 'non-stream c=64, CPU per call', PG).ok).toBeUndefined();
  });

  it('checks the PostgreSQL gateway against the PostgreSQL floor, not the SQLite one', () => {
    const checks = targetChecks(
      [
        result(plain64, {
          [BARE]: {},
          [floorSqlite]: { cpuUsPerCall: 100 },
          [floorPg]: { cpuUsPerCall: 300 },
          [SQLITE]: { cpuUsPerCall: 120 },
          [PG]: { cpuUsPerCall: 350 },
        }),
      ],
      [SQLITE, PG],
      undefined,
    );
    expect(check(checks, 'non-stream c=64, CPU per call').ok).toBe(true);
    const pg = check(checks, 'non-stream c=64, CPU per call', PG);
    expect(pg.ok).toBe(true);
    expect(pg.limit).toBe('≤ 1.3 × 300 = 390 µs');
  });

  it("holds peak RSS to the floor on the same database + 30 MiB, and the soak's growth to the floor's + 5 MiB", () => {
    const memory = (sqlite: number, pg: number, lastTenth: number): Memory => ({
      peaks: new Map([
        [BARE, 60],
        [floorSqlite, 100],
        [floorPg, 80],
        [SQLITE, sqlite],
        [PG, pg],
      ]),
      soaks: new Map([
        [floorSqlite, { firstTenth: 100, lastTenth: 103 }],
        [SQLITE, { firstTenth: 120, lastTenth }],
      ]),
    });
    const ok = targetChecks([], [SQLITE, PG], memory(129, 109, 128));
    expect(check(ok, 'peak RSS').ok).toBe(true);
    expect(check(ok, 'peak RSS', PG).ok).toBe(true);
    expect(check(ok, 'peak RSS', PG).bare).toBe('60.0 + 49.0 MiB');
    expect(check(ok, 'RSS growth').ok).toBe(true);
    expect(check(ok, 'RSS growth').limit).toBe('≤ 3.0 + 5 = 8.0 MiB');
    expect(ok.filter((c) => c.target.startsWith('RSS growth'))).toHaveLength(1);
    const miss = targetChecks([], [SQLITE, PG], memory(131, 111, 128.5));
    expect(check(miss, 'peak RSS').ok).toBe(false);
    expect(check(miss, 'peak RSS', PG).ok).toBe(false);
    expect(check(miss, 'RSS growth').ok).toBe(false);
    const shrunk = (floorLast: number): Memory => ({
      peaks: new Map(),
      soaks: new Map([
        [floorSqlite, { firstTenth: 100, lastTenth: floorLast }],
        [SQLITE, { firstTenth: 120, lastTenth: 124 }],
      ]),
    });
    expect(check(targetChecks([], [SQLITE], shrunk(99)), 'RSS growth').ok).toBe(true);
    expect(check(targetChecks([], [SQLITE], shrunk(98)), 'RSS growth').ok).toBe(false);
  });
});
