// A long streaming run at c=64 through the gateway and through the ledger floor on its database,
// sampling each one's memory every second: a leak shows as the gateway's last tenth above its first by
// more than the floor's. A Node server's RSS creeps up for minutes under such load while V8 touches
// the heap pages it has committed (docs/benchmarks.md): the floor's growth is that creep.
import { runLoad } from './load';
import { requestBody } from './measure';
import { rssOf } from './proc-stats';
import type { Gateway, Target } from './servers';
import { floorFor } from './target-names';
import type { Memory } from './targets';

interface SoakResult {
  requests: number;
  rps: number;
  errors: number;
  /** Average RSS (MiB) over the first and the last tenth of the run, and the peak since start-up. */
  firstTenth: number;
  lastTenth: number;
  peak: number;
}

const average = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

async function soak(target: Target, seconds: number): Promise<SoakResult> {
  const pid = target.process!.pid!;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssOf(pid).rss), 1000);
  const load = await runLoad({
    origin: target.url,
    path: '/v1/chat/completions',
    headers: target.headers,
    body: requestBody(true),
    concurrency: 64,
    seconds,
    warmupSeconds: 0,
  });
  clearInterval(sampler);
  const tenth = Math.max(1, Math.floor(samples.length / 10));
  return {
    requests: load.requests,
    rps: load.rps,
    errors: load.errors,
    firstTenth: average(samples.slice(0, tenth)),
    lastTenth: average(samples.slice(-tenth)),
    peak: rssOf(pid).peak,
  };
}

/**
 * Prints the peak RSS after the cases of the bare proxy, every ledger floor and every gateway (all did
 * the same work), then soaks the first gateway's floor and the gateway, one after the other, and prints
 * their memory over the soak; the figures for the memory targets (no soak when it does not run).
 */
export async function measureMemory(
  bare: Target,
  floors: Target[],
  gateways: Gateway[],
  seconds: number,
): Promise<Memory> {
  const peaks = new Map(
    [bare, ...floors, ...gateways].map((target) => [target.name, rssOf(target.process!.pid!).peak]),
  );
  const [first, ...rest] = [...peaks];
  console.log(`\nPeak RSS after the cases: ${first![0]} ${first![1].toFixed(1)} MiB`);
  for (const [name, peak] of rest) console.log(`  ${name} ${peak.toFixed(1)} MiB`);
  const gateway = gateways[0];
  if (!gateway || seconds === 0) return { peaks };
  const floor = floors.find((target) => target.name === floorFor(gateway.name));
  const soaks = new Map<string, { firstTenth: number; lastTenth: number }>();
  for (const target of floor ? [floor, gateway] : [gateway]) {
    const soaked = await soak(target, seconds);
    console.log(
      `Soak, ${target.name}: ${seconds} s streaming at c=64, ${soaked.requests} requests (${soaked.rps.toFixed(0)}/s), ${soaked.errors} errors; RSS first tenth ${soaked.firstTenth.toFixed(1)} MiB, last tenth ${soaked.lastTenth.toFixed(1)} MiB, peak ${soaked.peak.toFixed(1)} MiB`,
    );
    soaks.set(target.name, soaked);
  }
  return { peaks, soaks };
}
