import fs from 'node:fs';

/** The resident memory of a process, in bytes, as the kernel counts it. */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kilobytes) throw new Error(`no VmRSS for ${pid}`);
  return Number(kilobytes) * 1024;
}

/** Samples a process's resident memory until stopped; answers the highest seen. */
export function watchPeak(pid: number): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, residentBytes(pid));
    },
  };
}
