// Preloaded into a server (`node --import`), changing nothing in it: every BENCH_HEAP_EVERY_MS it
// appends to <BENCH_HEAP_DIR>/<pid>.jsonl one line of its memory as V8 and Node count it, with the heap
// in use after the last full collection (a leak grows that; a heap merely filling up does not).
import fs from 'node:fs';
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

const dir = process.env.BENCH_HEAP_DIR;
const everyMs = Number(process.env.BENCH_HEAP_EVERY_MS ?? 5000);
const MiB = 1024 * 1024;

if (dir && everyMs > 0) {
  let afterFullCollection: number | undefined;
  let fullCollections = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      fullCollections++;
      afterFullCollection = v8.getHeapStatistics().used_heap_size / MiB;
    }
  }).observe({ entryTypes: ['gc'] });
  const file = path.join(dir, `${process.pid}.jsonl`);
  const started = Date.now();
  setInterval(() => {
    const heap = v8.getHeapStatistics();
    const usage = process.memoryUsage();
    const line = {
      seconds: Math.round((Date.now() - started) / 1000),
      rss: usage.rss / MiB,
      heapCommitted: heap.total_heap_size / MiB,
      heapResident: heap.total_physical_size / MiB,
      heapUsed: heap.used_heap_size / MiB,
      afterFullCollection,
      fullCollections,
      external: usage.external / MiB,
      arrayBuffers: usage.arrayBuffers / MiB,
      v8Malloced: heap.malloced_memory / MiB,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, everyMs).unref();
}
