import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, freePort, untilListening } from './process/built-server';

// The built server as an operator starts it: where its database lands, and how a bad variable stops it.
let built: Awaited<ReturnType<typeof buildServer>>;
beforeAll(async () => {
  built = await buildServer();
});
afterAll(() => built.remove());

/** Runs the server to its exit; its status and what it wrote to stderr. */
function runToExit(env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [built.entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stderr })));
}

/**
 * Starts the built server on SQLite (`env` on top of a quiet start's), waits until it listens, runs
 * `check`, then stops it.
 */
async function whileListening(
  options: { env: Record<string, string>; cwd?: string; nodeFlags?: string[] },
  check: () => void,
): Promise<void> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), built.entry], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: {
      ...process.env,
      PORT: String(await freePort()),
      SQL_DSN: '',
      REDIS_CONN_STRING: '',
      SESSION_SECRET: 'config-test-secret',
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  try {
    await untilListening(child, () => output, 50_000);
    check();
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
}

describe('start-up', () => {
  it('a server started from server/ by npm creates its database under INIT_CWD, not server/data', async () => {
    const started = mkdtempSync(path.join(tmpdir(), 'switchyard-start-'));
    const scriptDir = mkdtempSync(path.join(tmpdir(), 'switchyard-script-'));
    try {
      await whileListening({ cwd: scriptDir, env: { INIT_CWD: started, SQLITE_PATH: '' } }, () => {
        expect(existsSync(path.join(started, 'data', 'one-api.db'))).toBe(true);
        expect(existsSync(path.join(scriptDir, 'data'))).toBe(false);
      });
    } finally {
      rmSync(started, { recursive: true, force: true });
      rmSync(scriptDir, { recursive: true, force: true });
    }
  });

  it('stops the process with one clear line naming a bad variable', async () => {
    const run = await runToExit({ PORT: 'not-a-port' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Configuration error: PORT: expected a whole number, got "not-a-port"');
  });

  it('stops the process with one line naming a bad global rate limit', async () => {
    const run = await runToExit({ GLOBAL_WEB_RATE_LIMIT: '-5' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'Configuration error: GLOBAL_WEB_RATE_LIMIT: expected a whole number, got "-5"',
    );
  });

  it("loads neither the packages of payments, passkeys, QR codes, OpenID Connect and AWS nor Node's own undici at start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-modules-'));
    const loaded = path.join(dir, 'loaded.txt');
    const builtins = path.join(dir, 'builtins.txt');
    // Writes down every module the server resolves, as it resolves it, and Node's own modules it
    // loaded, as it exits.
    const hook = path.join(dir, 'hook.mjs');
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';
import { appendFileSync, writeFileSync } from 'node:fs';
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  appendFileSync(${JSON.stringify(loaded)}, resolved.url + '\\n');
  return resolved;
} });
process.on('exit', () => writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join('\\n')));
`,
    );
    const env = { SQLITE_PATH: path.join(dir, 'one-api.db') };
    try {
      await whileListening({ env, nodeFlags: ['--import', pathToFileURL(hook).href] }, () => {
        const packages = readFileSync(loaded, 'utf8');
        expect(packages).toContain('/node_modules/fastify/');
        for (const name of [
          'stripe',
          '@simplewebauthn/server',
          'qrcode',
          'jose',
          '@smithy/',
          'pino-pretty',
        ]) {
          expect(packages, name).not.toContain(`/node_modules/${name}`);
        }
      });
      const nodeModules = readFileSync(builtins, 'utf8');
      expect(nodeModules).toContain('NativeModule http\n');
      expect(nodeModules).not.toContain('deps/undici');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
