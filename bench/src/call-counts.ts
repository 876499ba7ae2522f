// Reads what `call-count-probe.ts` wrote during a bench run and prints, for every window a process
// served requests in: the requests (node:http's `parserOnIncoming` calls), the function calls a request
// (an async function or generator counts once more each time it resumes), and how many distinct
// functions run for at least every other request, split into the server's own code, Node's and the
// npm packages'. Usage: `npx tsx bench/src/call-counts.ts <BENCH_CALL_COUNTS_DIR>`.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallCounts } from './call-count-probe';
import { printTable } from './table';

export type CallSummary = {
  requests: number;
  callsPerRequest: number;
  /** Distinct functions called at least once every other request. */
  functions: { own: number; node: number; packages: number };
  /** The script of the server's own code with the most calls. */
  ownScript: string;
};

const origin = (url: string) =>
  url.startsWith('node:') ? 'node' : url.includes('/node_modules/') ? 'packages' : 'own';

export function summarize({ functions }: CallCounts): CallSummary {
  const requests = functions
    .filter(([, name, where]) => name === 'parserOnIncoming' && where.startsWith('node:_http_server:'))
    .reduce((sum, [calls]) => sum + calls, 0);
  const summary: CallSummary = {
    requests,
    callsPerRequest: 0,
    functions: { own: 0, node: 0, packages: 0 },
    ownScript: '',
  };
  if (requests === 0) return summary;
  const ownCalls = new Map<string, number>();
  let calls = 0;
  for (const [count, , where] of functions) {
    calls += count;
    const script = where.slice(0, where.lastIndexOf(':'));
    const from = origin(script);
    if (count * 2 >= requests) summary.functions[from] += 1;
    if (from === 'own') ownCalls.set(script, (ownCalls.get(script) ?? 0) + count);
  }
  summary.callsPerRequest = calls / requests;
  summary.ownScript = path.basename([...ownCalls].sort(([, a], [, b]) => b - a)[0]?.[0] ?? '');
  return summary;
}

function main(dir: string): void {
  const rows: string[][] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const counts = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CallCounts;
    const summary = summarize(counts);
    if (summary.requests === 0) continue;
    const { own, node, packages } = summary.functions;
    rows.push([
      file.replace(/\.json$/, ''),
      summary.ownScript,
      String(counts.ms),
      String(summary.requests),
      summary.callsPerRequest.toFixed(0),
      String(own),
      String(node),
      String(packages),
      String(own + node + packages),
    ]);
  }
  printTable(
    'Functions called at least every other request, by where they come from (windows with requests)',
    ['pid-window', 'server', 'ms', 'requests', 'calls a request', 'own', 'node', 'packages', 'functions'],
    rows,
    2,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: call-counts.ts <BENCH_CALL_COUNTS_DIR>');
  main(dir);
}
