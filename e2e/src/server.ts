import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onFreePort, servedNodeFlags, untilListening } from '../../server/test/process/built-server';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const serverEntry = join(repoRoot, 'server/dist/main.js');
const webDist = join(repoRoot, 'web/dist');

export interface RunningServer {
  baseUrl: string;
  /** The server's SQLite file, for a test that writes to it as one-api would. */
  databasePath: string;
  stop(): Promise<void>;
}

/** The real server on a fresh SQLite database and a free port, serving the built console. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npm run build" first`);
  if (!existsSync(join(webDist, 'index.html')))
    throw new Error(`${webDist} is missing: run "npm run build" first`);
  return onFreePort((port) => startOn(port, env));
}

async function startOn(port: number, env: Record<string, string>): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  const databasePath = join(dataDir, 'switchyard.db');
  let log = '';
  const child = spawn(process.execPath, [...servedNodeFlags(), serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      SQLITE_PATH: databasePath,
      SESSION_SECRET: 'e2e-session-secret-with-enough-length',
      WEB_DIST: webDist,
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CRITICAL_RATE_LIMIT: '0',
      // Sign-ins at bcrypt's least cost: every test signs in, often several times.
      PASSWORD_HASH_COST: '4',
      ...env,
      // Its start-up line (info) says it listens: a status answered on the port could be another
      // server's. Not a caller's to change.
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    // Under the CI's two lanes a start-up took over 30 s; the hooks allow 90.
    await untilListening(child, () => log, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    databasePath,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
