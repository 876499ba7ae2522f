import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './process/built-server';

const children: ChildProcess[] = [];
let built: Awaited<ReturnType<typeof buildServer>>;
beforeAll(async () => {
  built = await buildServer();
});
afterAll(() => built.remove());
const dirs: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts the server (SQLite, a free port) and answers its output once it says it is listening. */
async function startServer(onTerminal: boolean): Promise<string> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-logging-'));
  dirs.push(dir);
  const node = `${process.execPath} ${built.entry}`;
  // `script` runs the server on a pseudo-terminal, as when a person starts it by hand.
  const [command, args] = onTerminal
    ? ['script', ['-qfec', node, '/dev/null']]
    : [process.execPath, [built.entry]];
  const child = spawn(command as string, args as string[], {
    env: {
      ...process.env,
      PORT: String(port),
      SQL_DSN: '',
      REDIS_CONN_STRING: '',
      SQLITE_PATH: path.join(dir, 'one-api.db'),
      SESSION_SECRET: 'logging-test-secret-long-enough',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no start within 25 s:\n${output}`)), 25_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Listening on')) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
  });
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the server log', () => {
  it('is readable lines on a terminal', async () => {
    const output = await startServer(true);
    const line = output.split(/\r?\n/).find((text) => text.includes('Listening on')) ?? '';
    // Colours aside: "[2026-11-26 04:58:51] INFO: Listening on http://localhost:… (database: sqlite)".
    const plain = line.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g'), '');
    expect(plain).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] INFO: Listening on http:\/\/localhost:\d+/);
  });

  it('is JSON lines otherwise, for log collectors', async () => {
    const output = await startServer(false);
    const line = output.split('\n').find((text) => text.includes('Listening on')) ?? '';
    expect(JSON.parse(line)).toMatchObject({ level: 30, msg: expect.stringContaining('Listening on') });
  });
});
