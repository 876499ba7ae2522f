// A long streaming run at c=64 through the gateway, sampling its memory every second: a leak shows as
// a last tenth above the first.
import { runLoad } from './load';
import { requestBody } from './measure';
import { rssOf } from './proc-stats';
import type { Gateway } from './servers';

export interface SoakResult {
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

export async function soak(gateway: Gateway, seconds: number): Promise<SoakResult> {
  const pid = gateway.process.pid!;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssOf(pid).rss), 1000);
  const load = await runLoad({
    origin: gateway.url,
    path: '/v1/chat/completions',
    headers: gateway.headers,
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
