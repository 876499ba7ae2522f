import { randomBytes } from 'node:crypto';
import { CONSOLE_CALL_HEADER, CONSOLE_CALL_VALUE } from '@switchyard/contract/console-call';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS } from '../src/cluster/change-bus';
import { REDIS_COMMAND_TIMEOUT_MS } from '../src/cluster/redis-connection';
import { type Db, openDatabase } from '../src/db/database';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { MailCatcher } from './fakes/smtp';
import { clientsFor } from './harness';
import { books, setUserQuota, sleep } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { TcpProxy } from './process/tcp-proxy';
import { createChannel, createCustomer } from './relay-setup';

const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
/**
 * What a refusal may take beyond the command timeout: the request's own work, on a loaded machine
 * (a CI run in a slow hour took 1.57 s). A hang, or a wait for TCP's own timeouts, takes minutes.
 */
const MARGIN_MS = 3_000;
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

/** How long a process takes to find its change bus down: a heartbeat, and its PING's timeout. */
const BUS_DOWN_WITHIN_MS = HEARTBEAT_MS + REDIS_COMMAND_TIMEOUT_MS;

// Two processes share a database server: SQLite is one process's.
describe.skipIf(TEST_DIALECT === 'sqlite')('two processes while Redis is away', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: TestDatabase;
  let db: Db;
  let fake: HttpFake;
  const proxies: TcpProxy[] = [];
  const servers: ServerProcess[] = [];
  let a: ServerProcess;
  let b: ServerProcess;

  const chat = async (server: ServerProcess, key: string) => {
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, text: await response.text() };
  };
  const blackHole = () => {
    for (const proxy of proxies) proxy.blackHole();
  };
  const restore = () => Promise.all(proxies.map((proxy) => proxy.restore()));
  const busDown = (server: ServerProcess) => server.output.split('redis change bus down').length - 1;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(openAiHandler()).start(),
    ]);
    db = openDatabase(database.target);
    for (let index = 0; index < 2; index++) {
      const proxy = await new TcpProxy(REDIS.hostname, Number(REDIS.port || 6379)).start();
      proxies.push(proxy);
      const server = new ServerProcess(build.entry, await freePort(), {
        ...database.env,
        REDIS_CONN_STRING: `redis://127.0.0.1:${proxy.port}/9`,
        REDIS_KEY_PREFIX: `bus-${RUN}:`,
      });
      // One at a time: the first migrates the database.
      await server.start();
      servers.push(server);
    }
    [a, b] = servers as [ServerProcess, ServerProcess];
    await createChannel(await clientsFor(a.baseUrl).root(), { base_url: fake.url });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await db?.close();
    await Promise.all([database?.drop(), fake?.close()]);
    build?.remove();
  });

  it('an edit made while Redis is black-holed holds on every process; no call is charged 0', async () => {
    const root = await clientsFor(a.baseUrl).root();
    const customer = await createCustomer(clientsFor(a.baseUrl), 'busedit', { quota: 5_000_000 });
    // B holds credit ahead for the account.
    expect((await chat(b, customer.token.key)).status).toBe(200);
    const downBefore = busDown(b);
    blackHole();
    const refusedAfterEdit: number[] = [];
    try {
      // B keeps serving the account (its credit never goes idle) until it finds the bus down.
      const deadline = Date.now() + BUS_DOWN_WITHIN_MS + 5_000;
      while (busDown(b) === downBefore && Date.now() < deadline) {
        expect((await chat(b, customer.token.key)).status).toBe(200);
      }
      expect(busDown(b), 'B finds its bus down').toBe(downBefore + 1);
      // A cannot announce it; B must not spend the credit it held from before.
      await setUserQuota(root, customer.userId, 0);
      for (let call = 0; call < 5; call++) refusedAfterEdit.push((await chat(b, customer.token.key)).status);
    } finally {
      await restore();
    }
    expect(refusedAfterEdit).toEqual([403, 403, 403, 403, 403]);
    // And after Redis is back.
    await sleep(BUS_DOWN_WITHIN_MS);
    for (let call = 0; call < 3; call++) expect((await chat(b, customer.token.key)).status).toBe(403);

    const deadline = Date.now() + 5_000;
    let now = await books({ db }, customer.userId, customer.token.id);
    while (now.held + now.tokenHeld !== 0 && Date.now() < deadline) {
      await sleep(100);
      now = await books({ db }, customer.userId, customer.token.id);
    }
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    expect(now.quota).toBe(0);
    expect(now.logged).toBe(now.usedQuota);
    // Every call served was charged its price: none for nothing.
    expect(now.usedQuota).toBe(now.logs * Math.ceil((11 + 7 * 3) * 0.25));
    expect(now.usedQuota).toBeGreaterThan(0);
  }, 40_000);

  it('a process whose bus is down gives its credit back and holds call by call: nothing stranded', async () => {
    const customer = await createCustomer(clientsFor(a.baseUrl), 'busstrand', { quota: 5_000_000 });
    expect((await chat(b, customer.token.key)).status).toBe(200);
    const downBefore = busDown(b);
    blackHole();
    try {
      // B stays busy (its credit would never go idle) until it finds the bus down, and after.
      const deadline = Date.now() + BUS_DOWN_WITHIN_MS + 5_000;
      while (busDown(b) === downBefore && Date.now() < deadline) {
        expect((await chat(b, customer.token.key)).status).toBe(200);
      }
      expect(busDown(b), 'B finds its bus down').toBe(downBefore + 1);
      for (let call = 0; call < 3; call++) expect((await chat(b, customer.token.key)).status).toBe(200);
      // Nothing in flight now: nothing may be held for the account, though Redis is still away.
      const now = await books({ db }, customer.userId, customer.token.id);
      expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    } finally {
      await restore();
    }
  }, 40_000);
});
