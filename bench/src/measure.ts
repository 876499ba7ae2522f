// One measured window against one target: the load generator's figures, and the target's CPU time per
// call and event-loop delay over exactly that window (the warm-up excluded).
import { type LoadResult, runLoad } from './load';
import type { LoopDelay, LoopDelayProbes } from './loop-delay';
import { cpuMsBetween, cpuSnapshot, processTree } from './proc-stats';
import type { Target } from './servers';
import type { BenchCase } from './settings';

export interface Run {
  load: LoadResult;
  /** CPU µs per call, summed over the target's process tree. */
  cpuUsPerCall?: number;
  /** The part of it on the processes' main threads (the rest: V8's helpers, libuv's pool, workers). */
  mainThreadUsPerCall?: number;
  loopDelay?: LoopDelay;
  /** How many processes the target had (a cluster's primary and workers). */
  processes?: number;
}

export const requestBody = (stream: boolean) =>
  JSON.stringify({
    model: 'gpt-3.5-turbo',
    messages: [{ role: 'user', content: 'Hello, benchmark!' }],
    stream,
  });

/** The bench's chat call to a target. */
const chatCalls = (target: Target, stream: boolean) => ({
  origin: target.url,
  path: '/v1/chat/completions',
  headers: target.headers,
  body: requestBody(stream),
});

/**
 * Unmeasured load until the server's code is compiled as it will stay: half the time non-stream, half
 * streams, at concurrency 64 (the most calls a second). Without it the first cases would measure a
 * larger program's code on a lower tier than a smaller one's (docs/benchmarks.md).
 */
export async function warmUp(target: Target, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  for (const stream of [false, true]) {
    await runLoad({ ...chatCalls(target, stream), concurrency: 64, seconds: seconds / 2, warmupSeconds: 0 });
  }
}

export async function measure(
  target: Target,
  benchCase: BenchCase,
  window: { seconds: number; warmupSeconds: number },
  probes: LoopDelayProbes | undefined,
): Promise<Run> {
  const pid = target.process?.pid;
  // Found before the load: scanning /proc inside the window would stall the load generator.
  const tree = pid === undefined ? [] : processTree(pid);
  let before = cpuSnapshot([]);
  const load = await runLoad({
    ...chatCalls(target, benchCase.stream),
    concurrency: benchCase.concurrency,
    ...window,
    onMeasuring: () => {
      probes?.reset(tree);
      before = cpuSnapshot(tree);
    },
  });
  if (pid === undefined) return { load };
  const after = cpuSnapshot(processTree(pid));
  const cpuMs = cpuMsBetween(before, after);
  const calls = Math.max(1, load.requests);
  return {
    load,
    cpuUsPerCall: (cpuMs.all * 1000) / calls,
    mainThreadUsPerCall: (cpuMs.mainThread * 1000) / calls,
    loopDelay: await probes?.collect([...after.keys()]),
    processes: after.size,
  };
}
