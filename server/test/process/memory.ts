import fs from 'node:fs';

/** The resident memory of a process, in bytes, as the kernel counts it. */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kilobytes) throw new Error(`no VmRSS for ${pid}`);
  return Number(kilobytes) * 1024;
}

/**
 * Samples a process's resident memory until stopped; answers the highest seen. A process that dies
 * meanwhile is no longer sampled (the test says so with what it checks of the process).
 */
export function watchPeak(pid: number): { stop(): number } {
  let peak = residentBytes(pid);
  const sample = () => {
    try {
      peak = Math.max(peak, residentBytes(pid));
    } catch {
      // gone, or a zombie without memory: its peak is what was seen before
    }
  };
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/**
 * The resident memory once it stopped moving after a warm-up (two samples 100 ms apart within
 * 1 MB), or as it stands after 3 s: the baseline a growth is measured from.
 */
export async function settledResidentBytes(pid: number): Promise<number> {
  const deadline = Date.now() + 3_000;
  let last = residentBytes(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = residentBytes(pid);
    if (Math.abs(now - last) < 1024 * 1024 || Date.now() > deadline) return now;
    last = now;
  }
}
