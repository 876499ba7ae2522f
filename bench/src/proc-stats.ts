// CPU time and memory of processes, from /proc: CPU time is robust to other load on the machine,
// unlike latency.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of a /proc stat file after the command name, or undefined once the process is gone. */
function statFields(statPath: string): string[] | undefined {
  try {
    const stat = fs.readFileSync(statPath, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU time (ms, user + system) a process (or one of its threads) has used so far; 0 once it is gone. */
function cpuMsAt(statPath: string): number {
  const fields = statFields(statPath);
  if (!fields) return 0;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** CPU time (ms, user + system) the process has used so far, every thread; 0 once it is gone. */
export const cpuMsOf = (pid: number): number => cpuMsAt(`/proc/${pid}/stat`);

/**
 * CPU time (ms) of the process's main thread alone: its JavaScript and the I/O it does itself. The
 * rest is V8's helper threads (collector, compilers), libuv's pool and the process's own workers.
 */
const mainThreadCpuMsOf = (pid: number): number => cpuMsAt(`/proc/${pid}/task/${pid}/stat`);

/** Resident memory now, its peak (VmHWM) and its anonymous and file-backed parts now, in MiB. */
export function rssOf(pid: number): { rss: number; peak: number; anonymous: number; file: number } {
  let status = '';
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // gone
  }
  const read = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: read('VmRSS'), peak: read('VmHWM'), anonymous: read('RssAnon'), file: read('RssFile') };
}

/** The process and all its descendants (e.g. a cluster primary and its workers). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(`/proc/${entry}/stat`)?.[1]);
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

/** CPU ms of a process (every thread, and its main thread alone). */
interface CpuTime {
  all: number;
  mainThread: number;
}

/** CPU time per process of a tree, to subtract later from another snapshot of it. */
export type CpuSnapshot = Map<number, CpuTime>;

export const cpuSnapshot = (pids: number[]): CpuSnapshot =>
  new Map(pids.map((id) => [id, { all: cpuMsOf(id), mainThread: mainThreadCpuMsOf(id) }]));

/**
 * CPU ms the tree used between two snapshots (a process born in between counts from zero). The
 * kernel reports a process and its main thread in whole ticks, each rounded on its own: a main
 * thread may read a tick above its process, which it cannot have used.
 */
export function cpuMsBetween(before: CpuSnapshot, after: CpuSnapshot): CpuTime {
  const total = { all: 0, mainThread: 0 };
  for (const [id, time] of after) {
    const all = time.all - (before.get(id)?.all ?? 0);
    total.all += all;
    total.mainThread += Math.min(all, time.mainThread - (before.get(id)?.mainThread ?? 0));
  }
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
