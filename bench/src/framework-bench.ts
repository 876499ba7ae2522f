// What the HTTP framework alone costs a call: the bare proxy (node:http in front of an undici pool)
// against the same proxy inside Fastify, and inside Fastify with a body meter like the gateway's
// (bench/src/framework-proxy.ts). Pinned like `npm run bench` (servers on core 0, the upstream and the
// load on core 1), the targets interleaved in every repeat; medians of CPU µs per call and rps for
// BENCH_CASES. See docs/benchmarks.md.
import { measure, type Run } from './measure';
import { buildBenchServers, LOAD_CORE, pin, portPrintedBy, SERVERS_CORE, start } from './processes';
import { nodeArgsForServers, stop, type Target, upstreamHeaders } from './servers';
import { selectedCases, settings } from './settings';
import { fixed, printTable } from './table';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const files = await buildBenchServers();
  pin(process.pid, LOAD_CORE);
  const fake = start(LOAD_CORE, process.execPath, [files.fakeUpstream], {});
  const proxies: Array<{ name: string; file: string; env: Record<string, string> }> = [
    { name: 'node:http (bare proxy)', file: files.bareProxy, env: {} },
    { name: 'Fastify', file: files.frameworkProxy, env: {} },
    { name: 'Fastify + body meter', file: files.frameworkProxy, env: { FRAMEWORK_METER: '1' } },
  ];
  const runs = new Map<string, Run[]>();
  try {
    const upstreamUrl = `http://127.0.0.1:${await portPrintedBy(fake)}`;
    const window = { seconds: settings.seconds, warmupSeconds: settings.warmupSeconds };
    for (let repeat = 1; repeat <= settings.repeats; repeat++) {
      for (const proxy of proxies) {
        const child = start(
          SERVERS_CORE,
          process.execPath,
          [...nodeArgsForServers(settings.nodeArgs, undefined), proxy.file],
          {
            ...proxy.env,
            UPSTREAM_URL: upstreamUrl,
          },
        );
        const target: Target = {
          name: proxy.name,
          url: `http://127.0.0.1:${await portPrintedBy(child)}`,
          headers: upstreamHeaders,
          process: child,
        };
        try {
          for (const benchCase of selectedCases()) {
            const run = await measure(target, benchCase, window, undefined);
            const key = `${benchCase.label} | ${proxy.name}`;
            runs.set(key, [...(runs.get(key) ?? []), run]);
            console.log(
              `  #${repeat} ${key}: ${run.load.rps.toFixed(0)} rps, ${run.cpuUsPerCall?.toFixed(0)} µs/call`,
            );
          }
        } finally {
          await stop(child);
        }
      }
    }
  } finally {
    await stop(fake);
  }
  const rows = selectedCases().flatMap((benchCase) => {
    const cpu = (name: string) =>
      median((runs.get(`${benchCase.label} | ${name}`) ?? []).map((run) => run.cpuUsPerCall ?? 0));
    const base = cpu(proxies[0]!.name);
    return proxies.map((proxy) => {
      const proxyRuns = runs.get(`${benchCase.label} | ${proxy.name}`) ?? [];
      return [
        benchCase.label,
        proxy.name,
        fixed(median(proxyRuns.map((run) => run.load.rps)), 0),
        fixed(cpu(proxy.name), 0),
        fixed(cpu(proxy.name) - base, 0),
        String(proxyRuns.reduce((sum, run) => sum + run.load.errors, 0)),
      ];
    });
  });
  printTable(
    `The framework's cost (medians of ${settings.repeats} × ${settings.seconds} s; servers on core ${SERVERS_CORE})`,
    ['case', 'proxy', 'rps', 'CPU µs/call', '+ µs over node:http', 'errors'],
    rows,
    2,
  );
}

main()
  .then(() => process.exit())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
