import { randomBytes } from 'node:crypto';
import { CONSOLE_CALL_HEADER, CONSOLE_CALL_VALUE } from '@switchyard/contract/console-call';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_COMMAND_TIMEOUT_MS } from '../src/cluster/redis-connection';
import { createTestDatabase, type TestDatabase } from './databases';
import { MailCatcher } from './fakes/smtp';
import { clientsFor } from './harness';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { TcpProxy } from './process/tcp-proxy';

const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
/** What a refusal may take beyond the command timeout: the request's own work, on a loaded machine. */
const MARGIN_MS = 1_500;
const RUN = randomBytes(4).toString('hex');

interface Answer {
  status: number;
  code?: string;
  success?: boolean;
  ms: number;
}

describe('Redis that cannot be reached: features fail open or closed, and never hang', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  const smtp = new MailCatcher();

  /** A console call with a deadline of its own: a hang fails the test rather than waiting for ever. */
  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const started = Date.now();
    try {
      const response = await fetch(`${server.baseUrl}${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', [CONSOLE_CALL_HEADER]: CONSOLE_CALL_VALUE },
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json()) as { code?: string; success?: boolean };
      return { status: response.status, code: body.code, success: body.success, ms: Date.now() - started };
    } catch (error) {
      return { status: 0, code: String(error), ms: Date.now() - started };
    }
  };
  const mailCode = (name: string) => call(`/api/verification?email=${name}.${RUN}@example.com`);
  const signIn = () =>
    call('/api/user/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'root', password: '123456' }),
    });

  beforeAll(async () => {
    [build, database] = await Promise.all([buildServer(), createTestDatabase(), smtp.start()]);
    proxy = await new TcpProxy(REDIS.hostname, Number(REDIS.port || 6379)).start();
    server = new ServerProcess(build.entry, await freePort(), {
      ...database.env,
      REDIS_CONN_STRING: `redis://127.0.0.1:${proxy.port}/9`,
      REDIS_KEY_PREFIX: `outage-${RUN}:`,
      CRITICAL_RATE_LIMIT: '1000',
    });
    await server.start();
    const root = await clientsFor(server.baseUrl).root();
    for (const [key, value] of Object.entries({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  }, 60_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
    await Promise.all([database?.drop(), smtp.close()]);
    build?.remove();
  });

  for (const outage of ['black-holed', 'cut'] as const) {
    it(`while Redis is ${outage}: codes are refused clearly within the command timeout, sign-in goes on`, async () => {
      expect(await mailCode(`before-${outage}`)).toMatchObject({ status: 200, success: true });
      if (outage === 'cut') await proxy.cut();
      else proxy.blackHole();
      try {
        const [code, login] = await Promise.all([mailCode(outage), signIn()]);
        // Codes fail closed: no code is mailed that no process could check.
        expect(code.status, code.code).toBe(503);
        expect(code.code).toBe('codes_unavailable');
        expect(code.ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + MARGIN_MS);
        // The sign-in rate limit fails open.
        expect(login).toMatchObject({ status: 200, success: true });
        expect(login.ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + MARGIN_MS);
      } finally {
        await proxy.restore();
      }
      const deadline = Date.now() + 10_000;
      let after = await mailCode(`after-${outage}`);
      while (!after.success && Date.now() < deadline) after = await mailCode(`after-${outage}`);
      expect(after).toMatchObject({ status: 200, success: true });
    }, 30_000);
  }
});
