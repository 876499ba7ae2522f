// Preloaded (`node --import`) beside the loop-delay probe into the bench's servers: counts the promises
// a server creates (V8's promise hooks), by where each was created (its first frames), and the HTTP
// requests it received. On each SIGUSR2 (the bench's signals at the start and end of every measured
// window) it writes the counts since the last one to <BENCH_PROMISE_COUNTS_DIR>/<pid>-<n>.json and
// starts over. Every promise costs a stack trace here: a run with it counts, it does not time.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promiseHooks } from 'node:v8';

export type PromiseCounts = {
  pid: number;
  /** Milliseconds since the last signal (or since the probe started). */
  ms: number;
  requests: number;
  promises: number;
  /** [promises, where created: up to five frames, innermost first], the most frequent first. */
  sites: [number, string][];
};

const dir = process.env.BENCH_PROMISE_COUNTS_DIR;
const FRAMES = 5;
const SITES_KEPT = 60;

if (dir) {
  let requests = 0;
  let promises = 0;
  let sites = new Map<string, number>();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') requests += 1;
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  };
  Error.stackTraceLimit = FRAMES + 3;
  promiseHooks.onInit(() => {
    promises += 1;
    // Without this frame and the hook's own.
    const site = (new Error().stack ?? '')
      .split('\n')
      .slice(2, 2 + FRAMES)
      .map((frame) => frame.trim());
    const key = site.join(' < ');
    sites.set(key, (sites.get(key) ?? 0) + 1);
  });
  let taken = 0;
  let since = performance.now();
  process.on('SIGUSR2', () => {
    const now = performance.now();
    const counts: PromiseCounts = {
      pid: process.pid,
      ms: Math.round(now - since),
      requests,
      promises,
      sites: [...sites]
        .map(([site, count]): [number, string] => [count, site])
        .sort((a, b) => b[0] - a[0])
        .slice(0, SITES_KEPT),
    };
    since = now;
    requests = 0;
    promises = 0;
    sites = new Map();
    taken += 1;
    fs.writeFileSync(path.join(dir, `${process.pid}-${taken}.json`), JSON.stringify(counts));
  });
}
