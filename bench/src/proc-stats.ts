// CPU time and memory of processes, from /proc: CPU time is robust to other load on the machine,
// unlike latency.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name, or undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU time (ms, user + system) the process has used so far; 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Resident memory now and its peak (VmHWM), in MiB. */
export function rssOf(pid: number): { rss: number; peak: number } {
  let status = '';
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // gone
  }
  const read = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: read('VmRSS'), peak: read('VmHWM') };
}

/** The process and all its descendants (e.g. a cluster primary and its workers). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    if (!Number.isFinite(parent)) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const visit = (id: number) => {
    tree.push(id);
    for (const child of parents.get(id) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** CPU time per process of a tree, to subtract later from another snapshot of it. */
export type CpuSnapshot = Map<number, number>;

export const cpuSnapshot = (pids: number[]): CpuSnapshot => new Map(pids.map((id) => [id, cpuMsOf(id)]));

/** CPU ms the tree used between two snapshots (a process born in between counts from zero). */
export function cpuMsBetween(before: CpuSnapshot, after: CpuSnapshot): number {
  let total = 0;
  for (const [id, ms] of after) total += ms - (before.get(id) ?? 0);
  return total;
}

/** Busy and total CPU ticks of the whole machine so far, from /proc/stat. */
export function machineTicks(): { busy: number; total: number } {
  const values = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}
