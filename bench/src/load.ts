import { Pool } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  /** Total latency (ms): the whole answer. */
  p50: number;
  p99: number;
  /** Time to the first byte of the answer (ms): the first event of a stream. */
  ttfbP50: number;
  ttfbP99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Closed-loop load: `concurrency` workers each send one request after another for `seconds`. */
export async function runLoad(options: {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  /** Called once as the measured window begins, after the warm-up. */
  onMeasuring?: () => void;
}): Promise<LoadResult> {
  const pool = new Pool(options.origin, {
    connections: options.concurrency,
    pipelining: 1,
    keepAliveTimeout: 60_000,
  });
  const latencies: number[] = [];
  const ttfbs: number[] = [];
  let errors = 0;
  const warmupEnd = Date.now() + options.warmupSeconds * 1000;
  const end = warmupEnd + options.seconds * 1000;
  let measuredStart = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < end) {
        const measuring = Date.now() >= warmupEnd;
        if (measuring && measuredStart === 0) {
          measuredStart = performance.now();
          options.onMeasuring?.();
        }
        const started = performance.now();
        let firstByte = 0;
        try {
          const response = await pool.request({
            path: options.path,
            method: 'POST',
            headers: options.headers,
            body: options.body,
          });
          for await (const _chunk of response.body) {
            if (firstByte === 0) firstByte = performance.now() - started;
          }
          if (response.statusCode !== 200) errors++;
        } catch {
          errors++;
        }
        if (measuring) {
          latencies.push(performance.now() - started);
          ttfbs.push(firstByte);
        }
      }
    }),
  );
  const elapsed = (performance.now() - measuredStart) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  ttfbs.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ttfbP50: percentile(ttfbs, 50),
    ttfbP99: percentile(ttfbs, 99),
  };
}
