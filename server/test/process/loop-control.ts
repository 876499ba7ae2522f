import { spawn } from 'node:child_process';

/**
 * A process beside the server under test that shows what the machine did to every process
 * meanwhile (a test run's other lanes share the cores):
 * - `lagMaxMs`: how late its own timers ran (as the server's nodejs_eventloop_lag metric counts),
 *   though it has no work of its own;
 * - `stretch`: how many times longer than the CPU time it got a piece of work took (the median of
 *   pieces run every 500 ms). A server's synchronous work is stretched as much: a parse of 100 ms
 *   takes a second of wall time when the process gets a tenth of a core.
 */
const CONTROL = `
const { monitorEventLoopDelay } = require('node:perf_hooks');
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
// Wall time over the CPU time the process actually got, for a piece of work of about 20 ms: long
// enough to span several of the scheduler's slices (a shorter one runs whole once woken).
const piece = () => {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < 3e6; i++) x = (x * 31 + i) | 0;
  const used = process.cpuUsage(cpu);
  return x === 0.5 ? 0 : (performance.now() - wall) / Math.max(0.001, (used.user + used.system) / 1000);
};
const stretches = [];
const timer = setInterval(() => stretches.push(piece()), 500);
process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(timer);
  const sorted = stretches.sort((a, b) => a - b);
  const stretch = sorted[Math.floor(sorted.length / 2)] ?? 1;
  process.stdout.write(JSON.stringify({ lagMaxMs: lag.max / 1e6, stretch }));
  process.exit(0);
});
`;

export interface MachineLoad {
  lagMaxMs: number;
  stretch: number;
}

/** Starts the control; `stop` answers what it saw since. */
export function startLoopControl(): { stop(): Promise<MachineLoad> } {
  const child = spawn(process.execPath, ['-e', CONTROL], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => {
    output += data;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      return JSON.parse(output) as MachineLoad;
    },
  };
}
