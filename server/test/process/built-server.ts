import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds the server as `npm run build` does (our code bundled, packages external) into a folder of
 * this test file's own, so test files running side by side never overwrite each other's build.
 */
export async function buildServer(): Promise<{ entry: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(SERVER_DIR, '.test-build-'));
  const entry = path.join(dir, 'main.js');
  await build({
    entryPoints: [path.join(SERVER_DIR, 'src/main.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    logLevel: 'warning',
    plugins: [
      {
        name: 'externalise-packages',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@switchyard/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return { entry, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The node flags of the server's serve script (`node <flags> dist/main.js`), so a test's server runs as
 * `npm start` and the image run it.
 */
export function servedNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  return manifest.scripts.serve.split(' ').filter((word) => word.startsWith('--'));
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const START_TRIES = 3;

/**
 * Starts a server with `start(port)` on a free port (`port`, else one found now). A free port can be
 * taken between its choice and the server's listen (by another suite's server, or as an outgoing
 * connection's local port on a busy machine): the server then exits saying EADDRINUSE, and is started
 * again on another.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, port?: number): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await start(port ?? (await freePort()));
    } catch (error) {
      if (tries === START_TRIES || !(error instanceof Error && error.message.includes('EADDRINUSE')))
        throw error;
      port = undefined;
    }
  }
}

/**
 * Resolves once a starting server's output (`output`, as collected so far) says it listens; fails when
 * it exits first, or after `timeoutMs`, which only keeps a hung start from hanging the suite.
 */
export function untilListening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(limit);
      child.stdout?.off('data', listening);
      child.stderr?.off('data', listening);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const listening = () => {
      if (output().includes('Listening on')) done();
    };
    const exited = () => done(new Error(`the server exited at start:\n${output()}`));
    const limit = setTimeout(
      () => done(new Error(`the server did not start in ${timeoutMs / 1000} s:\n${output()}`)),
      timeoutMs,
    );
    child.stdout?.on('data', listening);
    child.stderr?.on('data', listening);
    child.once('exit', exited);
  });
}

/** The built server running as a child process, as an operator runs it. */
export class ServerProcess {
  #child: ChildProcess | undefined;
  #exited: Promise<number | null> | undefined;
  #port: number;
  #listened = false;
  /** Everything the process wrote (pino's JSON lines and anything else). */
  output = '';

  constructor(
    private readonly entry: string,
    port: number,
    private readonly env: Record<string, string>,
  ) {
    this.#port = port;
  }

  /** Where it listens: fixed once it first listened, so that a restarted server answers at the same address. */
  get port(): number {
    return this.#port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The running process's id (for reading its memory in /proc). */
  get pid(): number {
    const pid = this.#child?.pid;
    if (pid === undefined) throw new Error('the server is not running');
    return pid;
  }

  /** Whether the process it started is still running (false once it exited or was killed). */
  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /**
   * Starts it and resolves once it listens (the time limit stays under vitest's 90 s for a beforeAll).
   * A first start whose port was taken moves to another (`onFreePort`); a restart keeps its address.
   */
  async start(timeoutMs = 80_000): Promise<void> {
    if (this.#listened) return this.#startOn(this.#port, timeoutMs);
    await onFreePort((port) => this.#startOn(port, timeoutMs), this.#port);
    this.#listened = true;
  }

  async #startOn(port: number, timeoutMs: number): Promise<void> {
    this.#port = port;
    this.output = '';
    const child = spawn(process.execPath, [...servedNodeFlags(), this.entry], {
      env: {
        PATH: process.env.PATH ?? '',
        SESSION_SECRET: 'process-test-secret',
        CRITICAL_RATE_LIMIT: '0',
        GLOBAL_API_RATE_LIMIT: '0',
        GLOBAL_WEB_RATE_LIMIT: '0',
        // Sign-ins at bcrypt's least cost, as in the in-process suites (test/harness.ts).
        PASSWORD_HASH_COST: '4',
        LOG_LEVEL: 'info',
        PORT: String(this.#port),
        WEB_DIST: '/nonexistent',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (process.env.TEST_LOG) process.stderr.write(chunk);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    await untilListening(child, () => this.output, timeoutMs);
  }

  /** Sends a signal and waits for the process to end (SIGKILL: at once, nothing runs after it). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.#child || this.#child.exitCode !== null) return this.#child?.exitCode ?? null;
    this.#child.kill(signal);
    return (await this.#exited) ?? null;
  }
}
