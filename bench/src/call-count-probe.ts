// Preloaded (`node --import`) beside the loop-delay probe into the bench's servers: counts the calls of
// every JavaScript function with V8's precise coverage. On each SIGUSR2 (the bench's signals at the
// start and end of every measured window) it writes the counts since the last one to
// <BENCH_CALL_COUNTS_DIR>/<pid>-<n>.json and starts over. Counting slows a server down: a run with
// it measures how many functions a call runs, not how fast. `call-counts.ts` reads the files.
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

export type CallCounts = {
  pid: number;
  /** Milliseconds since the last signal (or since the probe started). */
  ms: number;
  /** [calls, function name, script and start offset], for every function called at least once. */
  functions: [number, string, string][];
};

const dir = process.env.BENCH_CALL_COUNTS_DIR;

if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  let taken = 0;
  let since = performance.now();
  process.on('SIGUSR2', () => {
    session.post('Profiler.takePreciseCoverage', (error, coverage) => {
      if (error) return;
      const now = performance.now();
      const counts: CallCounts = { pid: process.pid, ms: Math.round(now - since), functions: [] };
      since = now;
      for (const script of coverage.result) {
        for (const { functionName, ranges } of script.functions) {
          const [whole] = ranges;
          if (whole && whole.count > 0)
            counts.functions.push([
              whole.count,
              functionName || '(anonymous)',
              `${script.url}:${whole.startOffset}`,
            ]);
        }
      }
      taken += 1;
      // Written whole before it appears under its name.
      const file = path.join(dir, `${process.pid}-${String(taken).padStart(4, '0')}.json`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(counts));
      fs.renameSync(`${file}.tmp`, file);
    });
  });
}
