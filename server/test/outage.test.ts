import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { clientsFor } from './harness';
import { books, booksOnce, sleep } from './ledger-books';
import { gauge } from './metrics-gauge';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { targetPort, targetThroughProxy, throughProxy } from './process/database-proxy';
import { type LoadCall, runLoad } from './process/load';
import { TcpProxy } from './process/tcp-proxy';
import { type Customer, createChannel, createCustomer } from './relay-setup';
import { waitUntil } from './wait';

const RELAY_TIMEOUT_S = 3;
/** Settled calls a process may keep unwritten before it refuses new ones: what a kill can lose. */
const BACKLOG = 40;
/** What a call refused for want of the database may take beyond RELAY_TIMEOUT on a loaded machine. */
const MARGIN_MS = 1_500;
const METRICS_TOKEN = 'outage-metrics';

const metric = (sample: string) => gauge(server.baseUrl, METRICS_TOKEN, sample);
/** Whether every hold and settlement the server queued is written (none waits for the database). */
const written = async () =>
  (await metric('switchyard_group_commit_queue_depth{queue="settlements"}')) === 0 &&
  (await metric('switchyard_group_commit_queue_depth{queue="holds"}')) === 0;
const LEASE_MS = 3_000;

const chat = async (key: string) => {
  const started = Date.now();
  const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, text, ms: Date.now() - started };
};
let server: ServerProcess;

// An embedded database has no connection that can drop.
describe.skipIf(TEST_DIALECT === 'sqlite')('guarantee 4: the database drops out under load', () => {
  let database: TestDatabase;
  let db: Db;
  let proxy: TcpProxy;
  let fake: HttpFake;
  let build: Awaited<ReturnType<typeof buildServer>>;
  const customers: Array<{ customer: Customer; funds: number }> = [];
  let fresh: Customer;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(openAiHandler({ delayMs: 20, chunkDelayMs: 10 })).start(),
    ]);
    proxy = await new TcpProxy('127.0.0.1', targetPort(database)).start();
    server = new ServerProcess(build.entry, await freePort(), {
      ...throughProxy(database, proxy.port),
      // A call waits for the database this long at most (RELAY_TIMEOUT, at most 5 s).
      RELAY_TIMEOUT: String(RELAY_TIMEOUT_S),
      SETTLEMENT_BACKLOG: String(BACKLOG),
      // A killed process's holds come back this soon.
      QUOTA_HOLD_LEASE: String(LEASE_MS / 1000),
      METRICS_TOKEN,
    });
    await server.start();
    db = openDatabase(database.target);
    const clients = clientsFor(server.baseUrl);
    await createChannel(await clients.root(), { base_url: fake.url });
    for (const [name, funds] of [
      ['outagerich', 5_000_000],
      ['outagemid', 200_000],
    ] as const) {
      customers.push({ customer: await createCustomer(clients, name, { quota: funds }), funds });
    }
    fresh = await createCustomer(clients, 'outagefresh');
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
    await db?.close();
    await database?.drop();
    await fake?.close();
    build?.remove();
  });

  // A test that failed with the database cut must not leave it cut for the next.
  afterEach(() => proxy?.restore());

  it('closing the connections while the database is out does not fail', async () => {
    const cutProxy = await new TcpProxy('127.0.0.1', targetPort(database)).start();
    const connection = openDatabase(targetThroughProxy(database, cutProxy.port));
    try {
      await Promise.all([1, 2, 3].map(() => sql`select 1`.execute(connection.kysely)));
      await cutProxy.cut();
      // A statement sent on a connection the database has just dropped, as a shutdown's last write.
      const late = sql`select 1`.execute(connection.kysely).then(
        () => 'answered',
        () => 'failed',
      );
      await expect(connection.close()).resolves.toBeUndefined();
      expect(await late).toBe('failed');
    } finally {
      await cutProxy.close();
    }
  });

  it("the console's API answers 503 database_unavailable while the database is cut", async () => {
    const root = await clientsFor(server.baseUrl).root();
    await proxy.cut();
    try {
      const answers = await Promise.all([
        root.get('/api/user/self'),
        root.get('/api/user/?p=0'),
        clientsFor(server.baseUrl).client().post('/api/user/login', { username: 'root', password: '123456' }),
      ]);
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.body).toMatchObject({ success: false, code: 'database_unavailable' });
      }
    } finally {
      await proxy.restore();
    }
    expect((await root.get('/api/user/self')).status).toBe(200);
  }, 30_000);

  it('calls that cannot reserve fail at once and clearly; completed calls are billed once, after', async () => {
    const keys = customers.map(({ customer }) => `sk-${customer.token.key}`);
    const finished: LoadCall[] = [];
    // The load goes on until the outage has met it and the database is back: a fixed length ran out
    // before the cut on a slow machine.
    const stop = new AbortController();
    onTestFinished(() => stop.abort());
    const load = runLoad({
      targets: () => [server.baseUrl],
      keys,
      workers: 16,
      durationMs: 80_000,
      stop: stop.signal,
      calls: finished,
    });
    await waitUntil(() => finished.filter((call) => call.completed).length >= 32, {
      what: 'the load to be served',
    });
    const cutAt = Date.now();
    await proxy.cut();
    const startedSinceCut = () => finished.filter((call) => call.startedAt > cutAt).length;
    await waitUntil(() => startedSinceCut() >= 16, { what: 'the load to meet the cut' });
    // A key with no credit held in memory needs the database to reserve: a clear error, at once.
    const probeStarted = Date.now();
    const probe = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${fresh.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(probe.status).toBe(503);
    expect(((await probe.json()) as { error: { code: string } }).error.code).toBe('database_unavailable');
    expect(Date.now() - probeStarted).toBeLessThan(3_000);
    // The database stays away while the load goes on.
    await waitUntil(() => startedSinceCut() >= 64, {
      what: 'calls made while the database is away',
      timeoutMs: 30_000,
    });
    await proxy.restore();
    const restoredAt = Date.now();
    // Served again once it is back.
    await waitUntil(
      () => finished.filter((call) => call.completed && call.startedAt > restoredAt).length >= 8,
      {
        what: 'calls completed after the database came back',
        timeoutMs: 30_000,
      },
    );
    stop.abort();
    const calls = await load;

    const completed = calls.filter((call) => call.completed);
    const failed = calls.filter((call) => !call.completed);
    console.info(
      `${TEST_DIALECT}: ${calls.length} calls, ${completed.length} completed, ${failed.length} refused`,
    );
    for (const call of failed) {
      expect(call.status, call.error).toBe(503);
      expect(call.error).toMatch(/"code":"database_unavailable"/);
      expect(call.ms).toBeLessThan(3_000);
    }
    // Rich accounts went on from credit held in memory while the database was away.
    // Calls of rich accounts may go on meanwhile from credit held in memory (the next test shows it).
    const during = completed.filter((call) => call.startedAt > cutAt && call.startedAt < restoredAt);
    console.info(`${during.length} calls completed that started while the database was away`);

    // Settlements written once the database was back, and unused credit given back.
    const deadline = Date.now() + 20_000;
    const settledAll = async () => {
      if (!(await written())) return false;
      for (const { customer } of customers) {
        const now = await books({ db }, customer.userId, customer.token.id);
        if (now.held !== 0 || now.tokenHeld !== 0) return false;
      }
      return true;
    };
    while (!(await settledAll()) && Date.now() < deadline) await sleep(250);

    const logs = await db.kysely
      .selectFrom('logs')
      .select(['request_id', 'quota', 'user_id'])
      .where('type', '=', 2)
      .execute();
    const perRequest = new Map<string, number>();
    for (const log of logs)
      perRequest.set(log.request_id ?? '', (perRequest.get(log.request_id ?? '') ?? 0) + 1);
    for (const call of completed) expect(perRequest.get(call.requestId ?? ''), call.requestId).toBe(1);
    expect(logs.length).toBe(completed.length);
    for (const { customer, funds } of customers) {
      const now = await books({ db }, customer.userId, customer.token.id);
      expect([now.held, now.tokenHeld]).toEqual([0, 0]);
      expect(now.quota + now.usedQuota).toBe(funds);
      expect(now.logged).toBe(now.usedQuota);
      expect(now.remain + now.tokenUsed).toBe(1_000_000);
    }
  }, 90_000);

  it('credit whose give-back fails while the database is cut is given back once it is back', async () => {
    const funds = 5_000_000;
    const idle = await createCustomer(clientsFor(server.baseUrl), 'outageidle', { quota: funds });
    const answer = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${idle.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(200);
    await answer.text();
    // A rich account: the call held credit ahead for the next ones.
    expect((await books({ db }, idle.userId, idle.token.id)).held).toBeGreaterThan(0);
    await proxy.cut();
    // Idle credit goes back after 2 s: it leaves memory, and its give-back waits in the queue now.
    await waitUntil(
      async () =>
        (await metric('switchyard_reserved_credit_quota')) === 0 &&
        (await metric('switchyard_group_commit_queue_depth{queue="settlements"}')) > 0,
      {
        what: 'the idle credit to be given back, and the give-back to fail',
        timeoutMs: 10_000,
        intervalMs: 50,
      },
    );
    await proxy.restore();
    const restoredAt = Date.now();
    // Bound: the retries back off to 1 s; a new connection and the write take well under 2 s more.
    const deadline = restoredAt + 3_000;
    let now = await books({ db }, idle.userId, idle.token.id);
    while ((now.held !== 0 || now.tokenHeld !== 0) && Date.now() < deadline) {
      await sleep(100);
      now = await books({ db }, idle.userId, idle.token.id);
    }
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    expect(now.quota + now.usedQuota).toBe(funds);
    expect(now.logs).toBe(1);
    expect(now.logged).toBe(now.usedQuota);
  }, 30_000);

  it('a database that stops answering: calls that need it are refused within RELAY_TIMEOUT, late holds go back', async () => {
    const clients = clientsFor(server.baseUrl);
    const funds = { rich: 5_000_000, poor: 3_000, fresh: 1_000_000 };
    const rich = await createCustomer(clients, 'bhrich', { quota: funds.rich });
    const poor = await createCustomer(clients, 'bhpoor', { quota: funds.poor });
    const fresh = await createCustomer(clients, 'bhfresh', { quota: funds.fresh });
    // Both keys are now known to the process (its cache); the rich key holds credit ahead, used last
    // so that it is not idle (2 s) yet when the database stops answering.
    expect((await chat(poor.token.key)).status).toBe(200);
    expect((await chat(rich.token.key)).status).toBe(200);
    proxy.blackHole();
    let answers: Array<Awaited<ReturnType<typeof chat>>>;
    try {
      answers = await Promise.all([chat(rich.token.key), chat(poor.token.key), chat(fresh.token.key)]);
      // The rich key's idle credit (2 s) leaves memory too: its give-back waits for the database.
      await waitUntil(async () => (await metric('switchyard_reserved_credit_quota')) === 0, {
        what: 'the idle credit to be given back',
        intervalMs: 50,
      });
    } finally {
      await proxy.restore();
    }
    const [fromCredit, needsHold, needsKey] = answers;
    // Served from credit held in memory; its settlement is written once the database answers.
    expect(fromCredit?.status, fromCredit?.text).toBe(200);
    for (const refused of [needsHold, needsKey]) {
      expect(refused?.status, refused?.text).toBe(503);
      expect(refused?.text).toMatch(/"code":"database_unavailable"/);
    }
    for (const answer of answers) expect(answer.ms).toBeLessThan(RELAY_TIMEOUT_S * 1000 + MARGIN_MS);

    // Holds that landed after their calls gave up go back, with idle credit (2 s) and a retry (1 s).
    const accounts = [
      { customer: rich, funds: funds.rich, served: 2 },
      { customer: poor, funds: funds.poor, served: 1 },
      { customer: fresh, funds: funds.fresh, served: 0 },
    ];
    const deadline = Date.now() + 8_000;
    const held = async () => {
      let sum = 0;
      for (const { customer } of accounts) {
        const now = await books({ db }, customer.userId, customer.token.id);
        sum += now.held + now.tokenHeld;
      }
      return sum;
    };
    while (!((await written()) && (await held()) === 0) && Date.now() < deadline) await sleep(100);
    for (const { customer, funds: start, served } of accounts) {
      const now = await books({ db }, customer.userId, customer.token.id);
      expect([now.held, now.tokenHeld]).toEqual([0, 0]);
      expect(now.quota).toBeGreaterThanOrEqual(0);
      expect(now.quota + now.usedQuota).toBe(start);
      expect(now.logs, server.output.slice(-4000)).toBe(served);
      expect(now.logged).toBe(now.usedQuota);
    }
  }, 40_000);

  it('a process that outlives an outage longer than its lease keeps its lease: its own sweep never gives its holds back', async () => {
    const funds = 5_000_000;
    const payer = await createCustomer(clientsFor(server.baseUrl), 'outlived', { quota: funds });
    // Holds credit ahead for the next call.
    expect((await chat(payer.token.key)).status).toBe(200);
    const liveHolders = () =>
      db.kysely.selectFrom('quota_holders').selectAll().where('released_at', '=', 0).execute();
    const [before, ...others] = await liveHolders();
    expect(others).toEqual([]);
    proxy.blackHole();
    let during: Awaited<ReturnType<typeof chat>>;
    try {
      // Served from the credit; its settlement waits for the database.
      during = await chat(payer.token.key);
      // The process renews every third of its lease; the renewal sent last (it waits for the
      // database too) asked for an expiry a third of a lease after the one written. Once that is
      // past, the renewal lands too late to keep the lease by itself.
      const [{ expires_at: expiresAt = 0 } = {}] = await liveHolders();
      await sleep(Number(expiresAt) + LEASE_MS / 3 + 500 - Date.now());
    } finally {
      await proxy.restore();
    }
    expect(during.status, during.text).toBe(200);
    // Renewed again once the database answers, and what waited is written.
    await waitUntil(
      async () =>
        (await written()) && (await liveHolders()).some((row) => Number(row.expires_at) > Date.now()),
      { what: 'the lease renewed and the settlements written', intervalMs: 50 },
    );
    expect((await liveHolders()).map((row) => row.holder)).toEqual([before?.holder]);
    const now = await booksOnce(
      { db },
      payer.userId,
      payer.token.id,
      (books) => books.held === 0 && books.tokenHeld === 0,
      'the idle credit to be given back',
    );
    expect(now.quota + now.usedQuota).toBe(funds);
    expect(now.logs).toBe(2);
    expect(now.logged).toBe(now.usedQuota);
  }, 40_000);

  it('a process stopped while the database is out says what it could not write', async () => {
    const { customer } = customers[0]!;
    const key = `sk-${customer.token.key}`;
    const call = () =>
      fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
      }).then((response) => response.status);
    // The first call holds credit for the next ones; they need no database to be served.
    expect(await call()).toBe(200);
    await proxy.cut();
    expect(await Promise.all([call(), call(), call()])).toEqual([200, 200, 200]);
    const code = await server.stop('SIGTERM');
    await proxy.restore();
    expect(code, server.output.slice(-3000)).toBe(0);
    const line = server.output.split('\n').find((text) => text.includes('the database did not take'));
    expect(line, server.output.slice(-2000)).toBeDefined();
    const logged = JSON.parse(line!) as { calls: number; quota: number };
    expect(logged.calls).toBe(3);
    // gpt-3.5-turbo with the fake's 11 + 7 tokens: ceil((11 + 7 × 3) × 0.25) each.
    expect(logged.quota).toBe(3 * Math.ceil((11 + 7 * 3) * 0.25));
  }, 60_000);

  it('a kill during an outage loses at most SETTLEMENT_BACKLOG settlements: calls past it are refused', async () => {
    if (!(await fetch(`${server.baseUrl}/healthz`).catch(() => undefined))) await server.start();
    const funds = 5_000_000;
    const victim = await createCustomer(clientsFor(server.baseUrl), 'killedaway', { quota: funds });
    expect((await chat(victim.token.key)).status).toBe(200);
    await proxy.cut();
    let served: number[] = [];
    const refused: number[] = [];
    try {
      // Served from credit held in memory; each answer waits 2 s at most for its settlement.
      served = await Promise.all(
        Array.from({ length: BACKLOG }, async () => (await chat(victim.token.key)).status),
      );
      // BACKLOG settlements wait to be written now: the next calls are refused.
      for (let call = 0; call < 3; call++) refused.push((await chat(victim.token.key)).status);
      await server.stop('SIGKILL');
    } finally {
      await proxy.restore();
    }
    expect(served).toEqual(Array(BACKLOG).fill(200));
    expect(refused).toEqual([503, 503, 503]);

    // The killed process's holds come back after its lease (3 s) and a sweep of the restarted one.
    await server.start();
    const deadline = Date.now() + 10_000;
    let now = await books({ db }, victim.userId, victim.token.id);
    while ((now.held !== 0 || now.tokenHeld !== 0) && Date.now() < deadline) {
      await sleep(200);
      now = await books({ db }, victim.userId, victim.token.id);
    }
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    expect(now.quota + now.usedQuota).toBe(funds);
    expect(now.logged).toBe(now.usedQuota);
    // What the kill lost: calls answered whole and never written, within the stated bound.
    expect(1 + served.length - now.logs).toBeLessThanOrEqual(BACKLOG);
  }, 60_000);
});
