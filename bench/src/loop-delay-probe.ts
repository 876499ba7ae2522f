// Preloaded into the gateway and the bare proxy (`node --import`), changing nothing in them: measures
// how late the event loop runs a timer (perf_hooks.monitorEventLoopDelay). On SIGUSR2 it writes the
// statistics since the last signal to <BENCH_LOOP_DELAY_DIR>/<pid>.json and starts over. Cluster
// workers inherit the flag and the environment, so each process reports on its own. The file written
// at start-up tells the bench which processes carry the probe (SIGUSR2 would end any other).
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.BENCH_LOOP_DELAY_DIR;
const resolutionMs = Number(process.env.BENCH_LOOP_DELAY_RESOLUTION ?? 10);

if (dir && resolutionMs > 0) {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  // Each sample is the time between two timer runs, so the resolution itself is not delay.
  const delayMs = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - resolutionMs);
  const report = () => {
    const stats = {
      pid: process.pid,
      at: Date.now(),
      samples: histogram.count,
      p50: delayMs(histogram.percentile(50)),
      p99: delayMs(histogram.percentile(99)),
      max: delayMs(histogram.max),
    };
    histogram.reset();
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    fs.renameSync(`${file}.tmp`, file);
  };
  process.on('SIGUSR2', report);
  report();
}
