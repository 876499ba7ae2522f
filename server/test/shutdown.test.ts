import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { clientsFor } from './harness';
import { expectBalancedBooks, sleep } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { freshRequest } from './process/fresh-connection';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const FUNDS = 5_000_000;
const KEY_FUNDS = 1_000_000;
const WORDS = 'one two three four five six seven eight nine ten';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const logLines = (output: string): LogLine[] =>
  output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });

/** Opens a stream and answers a reader of its text, once its head has arrived. */
async function openStream(baseUrl: string, key: string) {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-3.5-turbo',
      stream: true,
      messages: [{ role: 'user', content: 'count' }],
    }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async firstChunk() {
      const { value } = await reader.read();
      text += decoder.decode(value);
    },
    async rest(): Promise<string> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += decoder.decode(value);
      }
    },
  };
}

describe(`graceful shutdown of the built server (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let db: Db;
  let fake: HttpFake;
  let build: Awaited<ReturnType<typeof buildServer>>;
  let server: ServerProcess;
  let customer: Customer;
  let env: Record<string, string>;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      // Ten words 150 ms apart: a stream takes 1.5 s.
      new HttpFake(openAiHandler({ chunkDelayMs: 150, reply: WORDS })).start(),
    ]);
    // PostgreSQL here trusts every login: a password in the DSN shows the start-up line masks it.
    const dsn =
      TEST_DIALECT === 'postgres'
        ? database.env.SQL_DSN.replace('postgres@', 'postgres:hunter2secret@')
        : database.env.SQL_DSN;
    env = {
      ...database.env,
      SQL_DSN: dsn,
      SHUTDOWN_TIMEOUT: '20',
      LOG_LEVEL: 'debug',
      DEBUG_SQL: 'true',
      BATCH_UPDATE_ENABLED: 'true',
      GIN_MODE: 'release',
    };
    server = new ServerProcess(build.entry, await freePort(), env);
    await server.start();
    db = openDatabase(database.target);
    const clients = clientsFor(server.baseUrl);
    await createChannel(await clients.root(), { base_url: fake.url });
    customer = await createCustomer(clients, 'lastcall', {
      quota: FUNDS,
      token: { remain_quota: KEY_FUNDS },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.close();
    await database?.drop();
    await fake?.close();
    build?.remove();
  });

  it('says at start what it runs on, secrets masked, and which variables it does not need', () => {
    const lines = logLines(server.output);
    const summary = lines.find((line) => line.msg.startsWith('Configuration: '));
    expect(summary, server.output.slice(0, 2000)).toBeDefined();
    expect(summary!.database).toMatch(new RegExp(`^${TEST_DIALECT} `));
    expect(summary).toMatchObject({ redis: 'no', port: server.port, workers: 1, metrics: 'off' });
    expect(server.output).not.toContain('hunter2secret');
    if (TEST_DIALECT === 'postgres') expect(summary!.database).toContain('postgres:***@');
    const obsolete = lines.find((line) => line.msg.startsWith('Not needed here, ignored: '));
    expect(obsolete?.msg).toContain('BATCH_UPDATE_ENABLED (');
    expect(obsolete?.msg).toContain('GIN_MODE (');
    expect(obsolete?.msg).not.toContain('THEME');
  });

  it('DEBUG_SQL logs the statements at debug level, string parameters masked', () => {
    const statements = logLines(server.output).filter((line) => line.msg === 'sql');
    expect(statements.length).toBeGreaterThan(5);
    expect(statements.every((line) => line.level === 20)).toBe(true);
    expect(statements.some((line) => /insert into/i.test(String(line.sql)))).toBe(true);
    expect(JSON.stringify(statements)).toMatch(/<string \d+>/);
    // The customer's key never reaches the log, though every call looks it up.
    expect(server.output).not.toContain(customer.token.key);
  });

  it('SIGTERM: refuses new connections, lets the stream in flight finish, settles it and exits 0', async () => {
    const stream = await openStream(server.baseUrl, `sk-${customer.token.key}`);
    await stream.firstChunk();
    const exited = server.stop('SIGTERM');
    // The listening socket closes at once: a new connection is refused while the stream goes on. A
    // connection that was waiting to be accepted as the socket closed is reset instead; try again.
    const deadline = Date.now() + 5_000;
    let refused = '';
    while (!/ECONNREFUSED/.test(refused) && Date.now() < deadline) {
      refused = await freshRequest(server.baseUrl, 'GET', '/healthz').then(
        () => '',
        (error: unknown) => String((error as { code?: string })?.code ?? error),
      );
      if (!/ECONNREFUSED/.test(refused)) await sleep(50);
    }
    expect(refused).toMatch(/ECONNREFUSED/);
    const text = await stream.rest();
    for (const word of WORDS.split(' ')) expect(text).toContain(word);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await exited).toBe(0);
    expect(logLines(server.output).some((line) => line.msg === 'SIGTERM received, shutting down')).toBe(true);
    // One log for the call; what it cost is charged; the credit held ahead went back (nothing held).
    const books = await expectBalancedBooks(
      { db },
      { userId: customer.userId, tokenId: customer.token.id, userFunds: FUNDS, tokenFunds: KEY_FUNDS },
    );
    expect(books.logs).toBe(1);
    expect(books.usedQuota).toBeGreaterThan(0);
  });

  it('SHUTDOWN_TIMEOUT cuts a stream that runs longer, bills what it delivered and still exits 0', async () => {
    const slow = await new HttpFake(openAiHandler({ chunkDelayMs: 1_000, reply: WORDS })).start();
    const short = new ServerProcess(build.entry, await freePort(), { ...env, SHUTDOWN_TIMEOUT: '1' });
    try {
      await short.start();
      const root = await clientsFor(short.baseUrl).root();
      await root.put('/api/channel/', { id: 1, base_url: slow.url });
      const before = await expectBalancedBooks(
        { db },
        { userId: customer.userId, tokenId: customer.token.id, userFunds: FUNDS, tokenFunds: KEY_FUNDS },
      );
      const stream = await openStream(short.baseUrl, `sk-${customer.token.key}`);
      await stream.firstChunk();
      const started = Date.now();
      expect(await short.stop('SIGTERM')).toBe(0);
      expect(Date.now() - started).toBeLessThan(8_000);
      const text = await stream.rest().catch(() => '');
      expect(text).not.toContain('ten');
      expect(short.output).toContain('SHUTDOWN_TIMEOUT passed');
      const after = await expectBalancedBooks(
        { db },
        { userId: customer.userId, tokenId: customer.token.id, userFunds: FUNDS, tokenFunds: KEY_FUNDS },
      );
      expect(after.logs).toBeLessThanOrEqual(before.logs + 1);
    } finally {
      await short.stop('SIGKILL');
      await slow.close();
    }
  });

  it('a second signal ends the process at once, a stream still in flight', async () => {
    // A stream of ten seconds: waiting for it, as the first signal does, would take about nine more.
    const slow = await new HttpFake(openAiHandler({ chunkDelayMs: 1_000, reply: WORDS })).start();
    try {
      await server.start();
      const root = await clientsFor(server.baseUrl).root();
      await root.put('/api/channel/', { id: 1, base_url: slow.url });
      const stream = await openStream(server.baseUrl, `sk-${customer.token.key}`);
      await stream.firstChunk();
      const started = Date.now();
      const exited = server.stop('SIGTERM');
      await sleep(100);
      process.kill(server.pid, 'SIGINT');
      expect(await exited).toBe(1);
      expect(Date.now() - started).toBeLessThan(5_000);
      await stream.rest().catch(() => '');
    } finally {
      await slow.close();
    }
    expect(
      logLines(server.output).some((line) => line.msg === 'SIGINT received again: exiting at once'),
    ).toBe(true);
  });
});
