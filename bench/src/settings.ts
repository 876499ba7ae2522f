// What a run of `npm run bench` measures and for how long, from the environment.

const list = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};

export type BenchDatabase = 'sqlite' | 'postgres';

function databases(variable: string, fallback: string): BenchDatabase[] {
  const names = list(process.env[variable], fallback);
  for (const name of names) {
    if (name !== 'sqlite' && name !== 'postgres') throw new Error(`${variable}: unknown database ${name}`);
  }
  return names as BenchDatabase[];
}

export const settings = {
  seconds: number('BENCH_SECONDS', 10),
  warmupSeconds: number('BENCH_WARMUP', 2),
  /**
   * Unmeasured load each server gets once after its start, before any case: V8 compiles a function
   * with its optimizing tier only after thousands of calls, later for a larger program.
   */
  jitWarmupSeconds: number('BENCH_JIT_WARMUP', 20),
  soakSeconds: number('BENCH_SOAK_SECONDS', 60),
  /** Each case runs this many times, direct / bare proxy / gateways interleaved; tables show medians. */
  repeats: Math.max(1, Math.round(number('BENCH_REPEATS', 3))),
  /** Which cases to run, e.g. `stream:64` (default: all four). */
  cases: list(process.env.BENCH_CASES, 'plain:1,plain:64,stream:1,stream:64'),
  databases: databases('BENCH_DATABASES', 'sqlite,postgres'),
  /** WORKERS values to compare unpinned at c=64 after the main run (none by default). */
  workers: list(process.env.BENCH_WORKERS, ''),
  /** The database of the workers comparison: `sqlite` (default) or `postgres`. */
  workersDatabase: databases('BENCH_WORKERS_DATABASE', 'sqlite')[0] ?? 'sqlite',
  /** The built server to run as the gateway, e.g. another worktree's, to compare two versions. */
  server: process.env.BENCH_SERVER,
  /** A folder for V8 CPU profiles of the gateways (written when they shut down). */
  profileDir: process.env.BENCH_PROFILE_DIR,
  /** Extra node flags for the gateway and the bare proxy, to compare settings. */
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  /** The event-loop delay histogram's sampling period (ms) in the servers; 0 turns the probe off. */
  loopDelayResolutionMs: number('BENCH_LOOP_DELAY_RESOLUTION', 10),
  postgresAdminUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  /**
   * `bench:ab` only: PostgreSQL reached through a proxy (delay-proxy.ts) that holds each chunk this many
   * ms each way, as a database on another machine; 0 (default) connects directly.
   */
  postgresDelayMs: number('BENCH_PG_DELAY_MS', 0),
};

export interface BenchCase {
  stream: boolean;
  concurrency: number;
  label: string;
}

export const selectedCases = (): BenchCase[] =>
  [false, true].flatMap((stream) =>
    [1, 64]
      .filter((concurrency) => settings.cases.includes(`${stream ? 'stream' : 'plain'}:${concurrency}`))
      .map((concurrency) => ({
        stream,
        concurrency,
        label: `${stream ? 'stream' : 'non-stream'} c=${concurrency}`,
      })),
  );

/** The workers comparison's cases: non-stream and stream at c=64, whatever BENCH_CASES says. */
export const workerCases = (): BenchCase[] => [
  { stream: false, concurrency: 64, label: 'non-stream c=64' },
  { stream: true, concurrency: 64, label: 'stream c=64' },
];

/** Seconds a run takes, roughly: every measured window with its warm-up, the two soaks, and start-up. */
export function estimatedSeconds(): number {
  const window = settings.seconds + settings.warmupSeconds;
  const main = selectedCases().length * settings.repeats * (2 + 2 * settings.databases.length) * window;
  const workers = workerCases().length * settings.repeats * settings.workers.length * window;
  const servers = 1 + 2 * settings.databases.length + settings.workers.length;
  return main + workers + servers * settings.jitWarmupSeconds + 2 * settings.soakSeconds + 15;
}
