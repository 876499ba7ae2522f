import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { waitUntil } from './wait';

/** Redis processes of a test's own, on loopback ports of their own. */
export interface RedisDeployment {
  /** The app's settings that reach it (REDIS_CONN_STRING, REDIS_MASTER_NAME). */
  env: Record<string, string>;
  /** The ports of the data nodes (the master, or every Cluster master). */
  dataPorts: number[];
  stop(): Promise<void>;
}

const BINARY = 'redis-server';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A free port whose Cluster bus port (+10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10000 < 65536 && (await isFree(port + 10000))) return port;
  }
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Starts redis-server with `args` and waits until it answers on `port`; a missing binary fails loudly. */
async function startProcess(args: string[], port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(BINARY, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(`${BINARY} is not installed: the Sentinel and Cluster tests need it on the PATH`)
          : error,
      ),
    );
    child.once('exit', (code) =>
      reject(new Error(`${BINARY} ${args.join(' ')} exited (${code}): ${stderr}`)),
    );
  });
  failed.catch(() => {});
  await Promise.race([waitUntil(() => answersPing(port), { what: `${BINARY} on port ${port}` }), failed]);
  return child;
}

async function stopProcesses(children: ChildProcess[], dir: string): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}

const QUIET = ['--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'];

/** One master and one Sentinel watching it under `masterName`. */
export async function startSentinelDeployment(masterName = 'switchyard-test'): Promise<RedisDeployment> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-sentinel-'));
  const children: ChildProcess[] = [];
  try {
    const masterPort = await freePort();
    children.push(await startProcess(['--port', String(masterPort), ...QUIET], masterPort, dir));
    const sentinelPort = await freePort();
    // Sentinel rewrites its configuration file, so it needs one of its own.
    const config = path.join(dir, 'sentinel.conf');
    writeFileSync(
      config,
      `port ${sentinelPort}\nbind 127.0.0.1\nsentinel monitor ${masterName} 127.0.0.1 ${masterPort} 1\n`,
    );
    children.push(await startProcess([config, '--sentinel'], sentinelPort, dir));
    return {
      env: { REDIS_CONN_STRING: `127.0.0.1:${sentinelPort}`, REDIS_MASTER_NAME: masterName },
      dataPorts: [masterPort],
      stop: () => stopProcesses(children, dir),
    };
  } catch (error) {
    await stopProcesses(children, dir);
    throw error;
  }
}

const SLOTS = 16384;

/** A Cluster of `masters` masters (no replicas), its slots split evenly, ready for clients. */
export async function startClusterDeployment(masters = 3): Promise<RedisDeployment> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-cluster-'));
  const children: ChildProcess[] = [];
  const admins: Redis[] = [];
  try {
    const ports: number[] = [];
    for (let index = 0; index < masters; index++) {
      const port = await freeClusterPort();
      ports.push(port);
      const args = ['--port', String(port), ...QUIET, '--cluster-enabled', 'yes'];
      args.push('--cluster-config-file', `nodes-${port}.conf`);
      children.push(await startProcess(args, port, dir));
    }
    for (const port of ports) admins.push(new Redis({ port, host: '127.0.0.1', lazyConnect: true }));
    // By hand instead of `redis-cli --cluster create`, which waits in whole seconds.
    const perNode = Math.ceil(SLOTS / masters);
    await Promise.all(
      admins.map((admin, index) =>
        admin.call('CLUSTER', 'ADDSLOTSRANGE', index * perNode, Math.min(SLOTS, (index + 1) * perNode) - 1),
      ),
    );
    const [first] = admins as [Redis];
    for (const port of ports.slice(1)) await first.call('CLUSTER', 'MEET', '127.0.0.1', port);
    await waitUntil(
      async () => {
        const infos = await Promise.all(
          admins.map((admin) => admin.call('CLUSTER', 'INFO') as Promise<string>),
        );
        return infos.every(
          (info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${masters}`),
        );
      },
      { what: 'the Cluster to agree on its slots' },
    );
    return {
      env: { REDIS_CONN_STRING: ports.map((port) => `127.0.0.1:${port}`).join(',') },
      dataPorts: ports,
      stop: () => stopProcesses(children, dir),
    };
  } catch (error) {
    await stopProcesses(children, dir);
    throw error;
  } finally {
    for (const admin of admins) admin.disconnect();
  }
}
