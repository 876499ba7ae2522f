import { spawn } from 'node:child_process';

/**
 * A process that only runs its event loop, watching how late its timers run (as the server's
 * nodejs_eventloop_lag metric does): what the machine itself made every process wait, which a
 * server's own lag is judged beside when other work shares the cores (a test run's other lanes).
 */
const CONTROL = `
const { monitorEventLoopDelay } = require('node:perf_hooks');
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
process.stdin.resume();
process.stdin.on('end', () => { process.stdout.write(String(lag.max / 1e6)); process.exit(0); });
`;

/** Starts the control; `stop` answers the longest its loop was held up (ms). */
export function startLoopControl(): { stop(): Promise<number> } {
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
      return Number(output.trim());
    },
  };
}
