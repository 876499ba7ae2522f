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
