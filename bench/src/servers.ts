// The servers under test: the gateway (built server, on one database), the bare Node proxy and the
// ledger floor (on a database of its own), all with the node flags of `npm run serve` and the loop-delay
// probe preloaded.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { servedNodeFlags } from '../../server/test/process/built-server';
import type { BenchDatabaseHandle } from './bench-database';
import { type BenchAccount, setUpAccount } from './gateway-setup';
import { processTree } from './proc-stats';
import { type Cores, freePort, portPrintedBy, root, start, waitFor } from './processes';
import { floorName } from './target-names';

/** Something the load generator sends requests to, with the headers it needs. */
export interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The process to measure (CPU, memory, loop delay), or none for the fake upstream. */
  process?: ChildProcess;
}

export const upstreamHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk-bench' };

export interface Gateway extends Target {
  process: ChildProcess;
  database: BenchDatabaseHandle;
  account: BenchAccount;
}

export interface ServerOptions {
  /** The built server's entry (default: this repository's server/dist/main.js). */
  entry?: string;
  cores: Cores;
  /** Node flags every server under test gets (serve script's, BENCH_NODE_ARGS, the probe). */
  nodeArgs: string[];
  env: Record<string, string>;
}

export function nodeArgsForServers(extra: string[], probe: string | undefined): string[] {
  return [...servedNodeFlags(), ...extra, ...(probe ? ['--import', probe] : [])];
}

export async function startBareProxy(
  file: string,
  upstreamUrl: string,
  options: ServerOptions,
): Promise<Target> {
  const child = start(options.cores, process.execPath, [...options.nodeArgs, file], {
    ...options.env,
    UPSTREAM_URL: upstreamUrl,
  });
  return {
    name: 'bare proxy',
    url: `http://127.0.0.1:${await portPrintedBy(child)}`,
    headers: upstreamHeaders,
    process: child,
  };
}

export async function startGateway(
  name: string,
  database: BenchDatabaseHandle,
  upstreamUrl: string,
  options: ServerOptions,
): Promise<Gateway> {
  const port = await freePort();
  const child = start(
    options.cores,
    process.execPath,
    [...options.nodeArgs, options.entry ?? path.join(root, 'server/dist/main.js')],
    { ...options.env, ...database.env, PORT: String(port), SESSION_SECRET: 'bench', LOG_LEVEL: 'warn' },
    'inherit',
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/status`, child);
  const account = await setUpAccount(url, upstreamUrl);
  return {
    name,
    url,
    headers: { 'content-type': 'application/json', authorization: `Bearer sk-${account.key}` },
    process: child,
    database,
    account,
  };
}

/** The ledger floor on its database, and the account it serves. */
export interface LedgerFloor extends Target {
  process: ChildProcess;
  database: BenchDatabaseHandle;
  account: BenchAccount;
}

/**
 * The ledger floor on `database`: the built gateway starts once on it to create its tables and the
 * bench's account through its own API, then ends; the floor reads that account at its start.
 */
export async function startLedgerFloor(
  file: string,
  database: BenchDatabaseHandle,
  upstreamUrl: string,
  options: ServerOptions,
): Promise<LedgerFloor> {
  const setup = await startGateway('setup', database, upstreamUrl, { ...options, cores: undefined });
  await stop(setup.process);
  const child = start(options.cores, process.execPath, [...options.nodeArgs, file], {
    ...options.env,
    ...database.env,
    UPSTREAM_URL: upstreamUrl,
  });
  return {
    name: floorName(database.kind),
    url: `http://127.0.0.1:${await portPrintedBy(child)}`,
    headers: setup.headers,
    process: child,
    database,
    account: setup.account,
  };
}

/**
 * Ends a server and waits until it has (a gateway writes its CPU profile on the way out); children it
 * left behind (cluster workers of a primary that did not end them) are ended too.
 */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const descendants = processTree(child.pid!).slice(1);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
  for (const pid of descendants) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone, as it should be
    }
  }
}
