import { randomBytes, randomInt } from 'node:crypto';
import type { Token } from '@switchyard/contract/tokens';
import { Client as UndiciClient } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { MailCatcher } from './fakes/smtp';
import { Client, type EnvelopeBody } from './harness';
import { books, expectBalancedBooks, sleep } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { freshRequest } from './process/fresh-connection';
import { createChannel } from './relay-setup';

// 600 completion tokens at gpt-3.5-turbo's ratios: ceil((11 + 600 × 3) × 0.25) = 453 a call.
const COST = 453;
const CRITICAL_LIMIT = 40;
const RUN = randomBytes(4).toString('hex');
const address = (name: string) => `${name}.${RUN}@example.com`;
/** A client IP of its own (the server trusts X-Forwarded-For from loopback), so limits are not shared. */
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

interface LogLine {
  pid: number;
  worker?: number;
  msg: string;
}

const logLines = (output: string): LogLine[] =>
  output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });

/** The pid of each worker serving now, from the workers' own start lines (the last per slot). */
function workerPids(server: ServerProcess): Map<number, number> {
  const pids = new Map<number, number>();
  for (const line of logLines(server.output)) {
    if (line.worker !== undefined && line.msg.includes('serves port')) pids.set(line.worker, line.pid);
  }
  return pids;
}

describe(`WORKERS=2 without Redis (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let db: Db;
  let build: Awaited<ReturnType<typeof buildServer>>;
  let server: ServerProcess;
  let fake: HttpFake;
  let slowFake: HttpFake;
  const smtp = new MailCatcher();
  let root: Client;

  const fresh = <T = EnvelopeBody>(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: unknown } = {},
  ) => freshRequest<T>(server.baseUrl, method, path, init);
  const asRoot = (ip = freshIp()) => ({ cookie: root.cookie, 'x-forwarded-for': ip });

  /** A user with `quota` and one key of `remainQuota` (undefined: unlimited), made with root's one session. */
  async function customer(username: string, quota: number, remainQuota?: number) {
    const created = await root.post('/api/user/', { username, password: 'password123' });
    expect(created.body.success, created.body.message).toBe(true);
    const found = await root.get<EnvelopeBody<Array<{ id: number }>>>(`/api/user/search?keyword=${username}`);
    const userId = found.body.data![0]!.id;
    await root.post('/api/topup', { user_id: userId, quota });
    const user = new Client(server.baseUrl);
    await user.login(username, 'password123');
    const token = await user.post<EnvelopeBody<Token>>('/api/token/', {
      name: `${username}-key`,
      expired_time: -1,
      remain_quota: remainQuota ?? 0,
      unlimited_quota: remainQuota === undefined,
    });
    expect(token.body.success, token.body.message).toBe(true);
    return { userId, token: token.body.data!, key: `sk-${token.body.data!.key}` };
  }

  const chat = (key: string, model = 'gpt-3.5-turbo', extra: Record<string, unknown> = {}) =>
    fresh('POST', '/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
      body: { model, messages: [{ role: 'user', content: 'hi' }], ...extra },
    }).then(
      (answer) => answer.status,
      () => 0,
    );

  /** Once the workers gave back the credit they held ahead (2 s idle): nothing held for these users. */
  async function nothingHeld(userIds: number[]): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const held = await db.kysely
        .selectFrom('users')
        .select('held_quota')
        .where('id', 'in', userIds)
        .where('held_quota', '!=', 0)
        .execute();
      if (held.length === 0 || Date.now() > deadline) return;
      await sleep(200);
    }
  }

  beforeAll(async () => {
    [build, database, fake, slowFake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(openAiHandler({ usage: { prompt_tokens: 11, completion_tokens: 600 } })).start(),
      // Calls to gpt-4 take 400 ms: they are in flight when the server is told to stop.
      new HttpFake(
        openAiHandler({ delayMs: 400, usage: { prompt_tokens: 11, completion_tokens: 60 } }),
      ).start(),
      smtp.start(),
    ]);
    server = new ServerProcess(build.entry, await freePort(), {
      ...database.env,
      WORKERS: '2',
      QUOTA_HOLD_LEASE: '2',
      CRITICAL_RATE_LIMIT: String(CRITICAL_LIMIT),
    });
    await server.start();
    db = openDatabase(database.target);
    root = new Client(server.baseUrl);
    await root.login('root', '123456');
    await createChannel(root, { base_url: fake.url, models: 'gpt-3.5-turbo' });
    await createChannel(root, { base_url: slowFake.url, models: 'gpt-4' });
    for (const [key, value] of Object.entries({
      ServerAddress: 'https://gateway.example.com',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
      EmailVerificationEnabled: 'true',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.close();
    await database?.drop();
    await Promise.all([fake?.close(), slowFake?.close(), smtp.close()]);
    build?.remove();
  });

  it('migrates and creates root once, in the primary, and both workers serve', async () => {
    const lines = logLines(server.output);
    const migrated = lines.filter((line) => line.msg.includes('database schema checked and migrated'));
    expect(migrated.map((line) => line.pid)).toEqual([server.pid]);
    expect(lines.filter((line) => line.msg.includes('Created the super administrator'))).toHaveLength(1);
    const pids = workerPids(server);
    expect([...pids.keys()].sort()).toEqual([1, 2]);
    expect(new Set(pids.values()).size).toBe(2);
    expect([...pids.values()]).not.toContain(server.pid);

    // A rich account's calls leave credit held ahead under the name of the process that served
    // them (`<host>-<pid>-<random>`): calls on new connections are served by both workers.
    const rich = await customer('spread', 5_000_000);
    for (let i = 0; i < 8; i++) expect(await chat(rich.key)).toBe(200);
    const holders = await db.kysely
      .selectFrom('quota_holds')
      .select('holder')
      .where('user_id', '=', rich.userId)
      .execute();
    const servedBy = new Set(holders.map(({ holder }) => Number(/-(\d+)-[0-9a-f]+$/.exec(holder)?.[1])));
    expect([...servedBy].sort()).toEqual([...pids.values()].sort());
  });

  it('an option saved through one worker is in force on the next request, whichever worker takes it', async () => {
    // The other worker reloads the options from the database when told: the answer waits for it.
    for (const name of Array.from({ length: 30 }, (_, i) => `Name ${i} ${RUN}`)) {
      const saved = await fresh('PUT', '/api/option/', {
        headers: asRoot(),
        body: { key: 'SystemName', value: name },
      });
      expect(saved.body.success).toBe(true);
      for (let i = 0; i < 2; i++) {
        const status = await fresh<EnvelopeBody<{ system_name: string }>>('GET', '/api/status');
        expect(status.body.data?.system_name).toBe(name);
      }
    }
  });

  it('a key disabled through one worker is refused at once by both', async () => {
    const owner = await customer('keyowner', 1_000_000);
    for (let i = 0; i < 4; i++) expect(await chat(owner.key)).toBe(200);
    const user = new Client(server.baseUrl);
    await user.login('keyowner', 'password123');
    const disabled = await fresh('PUT', '/api/token/?status_only=true', {
      headers: { cookie: user.cookie },
      body: { id: owner.token.id, status: 2 },
    });
    expect(disabled.body.success).toBe(true);
    expect([await chat(owner.key), await chat(owner.key)]).toEqual([401, 401]);
  });

  it('a verification code mailed by one worker registers on the other, once', async () => {
    for (const name of ['hank', 'ivan']) {
      const email = address(name);
      const seen = smtp.to(email).length;
      const ip = freshIp();
      const sent = await fresh('GET', `/api/verification?email=${encodeURIComponent(email)}`, {
        headers: { 'x-forwarded-for': ip },
      });
      expect(sent.body).toMatchObject({ success: true });
      const mail = await smtp.next(email, seen);
      const code = /verification code is: <strong>([0-9a-f]{6})<\/strong>/.exec(mail.body)?.[1] ?? '';
      const register = (username: string) =>
        fresh('POST', '/api/user/register', {
          headers: { 'x-forwarded-for': ip },
          body: { username, password: 'password123', email, verification_code: code },
        });
      expect((await register(`${name}1`)).body).toMatchObject({ success: true });
      const again = await register(`${name}2`);
      expect(again.body).toMatchObject({ success: false });
    }
  });

  it('a reset link mailed by one worker works once, on either worker, and two clicks at once reset once', async () => {
    for (const name of ['kate', 'lena']) {
      const email = address(name);
      const created = await customer(name, 1);
      expect((await root.put('/api/user/', { id: created.userId, email })).body.success).toBe(true);
      const seen = smtp.to(email).length;
      const ip = freshIp();
      const sent = await fresh('GET', `/api/reset_password?email=${encodeURIComponent(email)}`, {
        headers: { 'x-forwarded-for': ip },
      });
      expect(sent.body).toMatchObject({ success: true });
      const href = /href="([^"]+)"/.exec((await smtp.next(email, seen)).body)?.[1]?.replace(/&amp;/g, '&');
      const token = new URL(href ?? '').searchParams.get('token') ?? '';
      const clicks = name === 'kate' ? 1 : 4;
      const answers = [];
      if (clicks === 1) {
        answers.push(
          await fresh('POST', '/api/user/reset', {
            headers: { 'x-forwarded-for': ip },
            body: { email, token },
          }),
        );
        answers.push(
          await fresh('POST', '/api/user/reset', {
            headers: { 'x-forwarded-for': ip },
            body: { email, token },
          }),
        );
      } else {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: clicks }, () =>
              fresh('POST', '/api/user/reset', {
                headers: { 'x-forwarded-for': ip },
                body: { email, token },
              }),
            ),
          )),
        );
      }
      // One click: on the worker after the one that mailed (each new connection goes to the next).
      if (clicks === 1) expect(answers.map((answer) => answer.body.success)).toEqual([true, false]);
      expect(answers.filter((answer) => answer.body.success)).toHaveLength(1);
    }
  });

  it('the login rate limit counts the calls of both workers together', async () => {
    const ip = freshIp();
    const login = () =>
      fresh('POST', '/api/user/login', {
        headers: { 'x-forwarded-for': ip },
        body: { username: `nobody-${RUN}`, password: 'wrong-password' },
      }).then((answer) => answer.status);
    // The limit's worth at once (each checks a password: sequentially they took 30 s on a busy machine),
    // spread by the primary over both workers; then every further one is refused.
    const allowed = await Promise.all(Array.from({ length: CRITICAL_LIMIT }, login));
    expect(allowed.filter((status) => status === 429)).toEqual([]);
    const beyond: number[] = [];
    for (let i = 0; i < 10; i++) beyond.push(await login());
    expect(beyond).toEqual(Array(10).fill(429));
  });

  it("a key's requests per minute count the calls of both workers together", async () => {
    const owner = await customer('rpmowner', 1_000_000);
    const user = new Client(server.baseUrl);
    await user.login('rpmowner', 'password123');
    const saved = await user.put('/api/token/', { ...owner.token, rpm_limit: 6 });
    expect(saved.body.success, saved.body.message).toBe(true);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => chat(owner.key)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(14);
  });

  it('concurrent calls spread over both workers leave exact books, account by account', async () => {
    const accounts = [
      { ...(await customer('books1', 3_000_000, 200_000)), userFunds: 3_000_000, tokenFunds: 200_000 },
      { ...(await customer('books2', 3_000_000)), userFunds: 3_000_000, tokenFunds: undefined },
      // Pays for a handful of calls only: runs dry half-way, never below zero.
      { ...(await customer('books3', 5 * COST)), userFunds: 5 * COST, tokenFunds: undefined },
    ];
    const statuses = new Map<number, number[]>(accounts.map((account) => [account.userId, []]));
    let next = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (next < 150) {
          const account = accounts[next++ % accounts.length]!;
          statuses.get(account.userId)!.push(await chat(account.key));
        }
      }),
    );
    await nothingHeld(accounts.map((account) => account.userId));
    for (const account of accounts) {
      const served = statuses.get(account.userId)!.filter((status) => status === 200).length;
      expect(statuses.get(account.userId)!.filter((status) => status !== 200 && status !== 403)).toEqual([]);
      const now = await expectBalancedBooks({ db }, { ...account, tokenId: account.token.id });
      expect(now.logs).toBe(served);
    }
    expect(statuses.get(accounts[2]!.userId)).toContain(403);
  });

  it('a worker asks the other for the credit it holds: an account is spent down to less than one call', async () => {
    await root.put('/api/option/', { key: 'PreConsumedQuota', value: '0' });
    const spender = await customer('spender', 20_000);
    // Two kept-alive connections opened one after the other: one on each worker.
    const [first, second] = [new UndiciClient(server.baseUrl), new UndiciClient(server.baseUrl)];
    // max_tokens 2,000 at ratio 0.25: each call holds 500 and costs 453.
    const call = async (connection: UndiciClient) => {
      const answer = await connection.request({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { authorization: `Bearer ${spender.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-3.5-turbo',
          messages: [{ role: 'user', content: 'hi' }],
          max_tokens: 2000,
        }),
      });
      await answer.body.dump();
      return answer.statusCode;
    };
    try {
      expect(await call(first)).toBe(200);
      expect((await books({ db }, spender.userId, spender.token.id)).held).toBeGreaterThan(5_000);
      // The first worker holds credit ahead; the other spends the rest, asking for that credit.
      let served = 1;
      for (;;) {
        const status = await call(second);
        if (status !== 200) {
          expect(status).toBe(403);
          break;
        }
        served += 1;
        expect(served).toBeLessThan(100);
      }
      await nothingHeld([spender.userId]);
      const now = await expectBalancedBooks(
        { db },
        { userId: spender.userId, tokenId: spender.token.id, userFunds: 20_000 },
      );
      expect(now.quota).toBeLessThan(500);
      expect(served).toBe(Math.floor((20_000 - 500) / COST) + 1);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await root.put('/api/option/', { key: 'PreConsumedQuota', value: '500' });
    }
  });

  it('a SIGKILLed worker is replaced, with a log line, and both serve again', async () => {
    const before = workerPids(server);
    const victim = before.get(2)!;
    process.kill(victim, 'SIGKILL');
    const deadline = Date.now() + 50_000;
    while (workerPids(server).get(2) === victim && Date.now() < deadline) await sleep(100);
    const after = workerPids(server);
    expect(after.get(2)).not.toBe(victim);
    expect(after.get(1)).toBe(before.get(1));
    expect(
      logLines(server.output).some(
        (line) => line.pid === server.pid && /worker 2 died \(SIGKILL\); starting another/.test(line.msg),
      ),
    ).toBe(true);
    const rich = await customer('afterkill', 5_000_000);
    for (let i = 0; i < 6; i++) expect(await chat(rich.key)).toBe(200);
    const holders = await db.kysely
      .selectFrom('quota_holds')
      .select('holder')
      .where('user_id', '=', rich.userId)
      .execute();
    const servedBy = new Set(holders.map(({ holder }) => Number(/-(\d+)-[0-9a-f]+$/.exec(holder)?.[1])));
    expect([...servedBy].sort()).toEqual([...after.values()].sort());
  });

  it('SIGTERM stops both workers gracefully: exit 0, calls in flight answered and settled', async () => {
    const account = await customer('lastcalls', 5_000_000, 1_000_000);
    const sent = slowFake.requests.length;
    const calls = Array.from({ length: 16 }, () => chat(account.key, 'gpt-4'));
    // The signal comes when every call is with the slow upstream (400 ms), however busy the machine.
    const deadline = Date.now() + 10_000;
    while (slowFake.requests.length < sent + 16 && Date.now() < deadline) await sleep(10);
    const code = await server.stop('SIGTERM');
    expect(code).toBe(0);
    const statuses = await Promise.all(calls);
    expect(statuses).toEqual(Array(16).fill(200));
    const lines = logLines(server.output);
    expect(
      lines
        .filter((line) => line.msg === 'SIGTERM received, shutting down')
        .map((line) => line.worker)
        .sort(),
    ).toEqual([1, 2]);
    // Every answer's settlement was written before its worker exited.
    const now = await books({ db }, account.userId, account.token.id);
    expect(now.logs).toBe(16);
    expect(now.quota + now.usedQuota).toBe(5_000_000);
    expect(now.remain + now.tokenUsed).toBe(1_000_000);
    expect(now.logged).toBe(now.usedQuota);
    // Credit held ahead at the stop comes back when the lease the workers let go is swept (next start).
    await server.start();
    await nothingHeld([account.userId]);
    await expectBalancedBooks(
      { db },
      { userId: account.userId, tokenId: account.token.id, userFunds: 5_000_000, tokenFunds: 1_000_000 },
    );
  });
});
