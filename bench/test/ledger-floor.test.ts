// The ledger floor against a fake OpenAI upstream, on SQLite and on PostgreSQL, its tables and account
// made by the built gateway: concurrent calls come back whole and are billed exactly, once each, at the
// gateway's price; a key or a user without balance is refused before any upstream call.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchDatabaseHandle, createBenchDatabase } from '../src/bench-database';
import { buildBenchServers, ensureServerBuilt, portPrintedBy, start } from '../src/processes';
import { type LedgerFloor, startLedgerFloor, stop } from '../src/servers';

const NON_STREAM_CALLS = 40;
const STREAM_CALLS = 30;
// gpt-3.5-turbo at the gateway's defaults: model ratio 0.25, completion ratio 3, rounded up.
const NON_STREAM_USAGE = { prompt_tokens: 12, completion_tokens: 5 };
const NON_STREAM_COST = Math.ceil((12 + 5 * 3) * 0.25); // 7
const STREAM_USAGE = { prompt_tokens: 12, completion_tokens: 10 };
const STREAM_COST = Math.ceil((12 + 10 * 3) * 0.25); // 11
const STREAM_CHUNKS = 10;

const reply = JSON.stringify({
  id: 'chatcmpl-floor',
  object: 'chat.completion',
  model: 'gpt-3.5-turbo',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Floor answer.' }, finish_reason: 'stop' }],
  usage: { ...NON_STREAM_USAGE, total_tokens: 17 },
});
const event = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;
const chunk = (i: number) =>
  event({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `w${i} ` } }] });

/**
 * An OpenAI-compatible upstream that counts its calls and, as OpenAI does, reports a stream's usage
 * only when `stream_options.include_usage` asks for it.
 */
function fakeUpstream() {
  const state = { calls: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (data: Buffer) => chunks.push(data));
    req.on('end', () => {
      state.calls++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
      };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(reply);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < STREAM_CHUNKS; i++) res.write(chunk(i));
      if (body.stream_options?.include_usage) {
        res.write(event({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: STREAM_USAGE }));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  return { server, state };
}

async function execute(database: BenchDatabaseHandle, statement: string): Promise<void> {
  if (database.kind === 'sqlite') {
    const db = new Database(database.env.SQLITE_PATH);
    try {
      db.exec(statement);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.env.SQL_DSN });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const call = (floor: LedgerFloor, stream: boolean) =>
  fetch(`${floor.url}/v1/chat/completions`, {
    method: 'POST',
    headers: floor.headers,
    body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Hi' }], stream }),
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-floor-test-'));
const upstream = fakeUpstream();
let upstreamUrl = '';
let floorFile = '';

beforeAll(async () => {
  ensureServerBuilt();
  floorFile = (await buildBenchServers()).ledgerFloor;
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  upstream.server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(['sqlite', 'postgres'] as const)('the ledger floor on %s', (kind) => {
  let database: BenchDatabaseHandle;
  let floor: LedgerFloor;
  const children: ChildProcess[] = [];

  /** The floor afresh on its database after `statement`: it reads keys and users at start. */
  async function restartAfter(statement: string): Promise<string> {
    await stop(floor.process);
    await execute(database, statement);
    const child = start(undefined, process.execPath, [floorFile], {
      ...database.env,
      UPSTREAM_URL: upstreamUrl,
    });
    children.push(child);
    return `http://127.0.0.1:${await portPrintedBy(child)}`;
  }

  beforeAll(async () => {
    database = await createBenchDatabase(kind, {
      dir,
      postgresAdminUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      name: 'floor_test',
    });
    floor = await startLedgerFloor(floorFile, database, upstreamUrl, {
      cores: undefined,
      nodeArgs: [],
      env: {},
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([floor.process, ...children].map(stop));
    await database?.drop();
  });

  it('answers concurrent calls whole and books each once, exactly, before answering', async () => {
    const callsBefore = upstream.state.calls;
    const answers = await Promise.all([
      ...Array.from({ length: NON_STREAM_CALLS }, async () => {
        const response = await call(floor, false);
        return { stream: false, status: response.status, text: await response.text() };
      }),
      ...Array.from({ length: STREAM_CALLS }, async () => {
        const response = await call(floor, true);
        return { stream: true, status: response.status, text: await response.text() };
      }),
    ]);

    expect(upstream.state.calls - callsBefore).toBe(NON_STREAM_CALLS + STREAM_CALLS);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      if (!answer.stream) {
        expect(answer.text).toBe(reply);
        continue;
      }
      const events = answer.text.split('\n\n').filter(Boolean);
      expect(events).toHaveLength(STREAM_CHUNKS + 2);
      for (let i = 0; i < STREAM_CHUNKS; i++) expect(`${events[i]}\n\n`).toBe(chunk(i));
      expect(JSON.parse(events[STREAM_CHUNKS]!.slice('data: '.length))).toMatchObject({
        usage: STREAM_USAGE,
      });
      expect(events.at(-1)).toBe('data: [DONE]');
    }

    // Every answer was released after its commit: the books are complete as soon as the last one came.
    const total = NON_STREAM_CALLS * NON_STREAM_COST + STREAM_CALLS * STREAM_COST;
    const billing = await database.billing(floor.account.userId);
    expect(billing).toEqual({
      logs: NON_STREAM_CALLS + STREAM_CALLS,
      logQuota: total,
      requests: NON_STREAM_CALLS + STREAM_CALLS,
      usedQuota: total,
      keysUsedQuota: total,
      kinds: [
        {
          stream: false,
          logs: NON_STREAM_CALLS,
          quota: NON_STREAM_CALLS * NON_STREAM_COST,
          minQuota: NON_STREAM_COST,
          maxQuota: NON_STREAM_COST,
        },
        {
          stream: true,
          logs: STREAM_CALLS,
          quota: STREAM_CALLS * STREAM_COST,
          minQuota: STREAM_COST,
          maxQuota: STREAM_COST,
        },
      ],
    });
  }, 60_000);

  it('refuses an unknown key, a malformed body and an unpriced model without an upstream call', async () => {
    const callsBefore = upstream.state.calls;
    const send = (headers: Record<string, string>, body: string) =>
      fetch(`${floor.url}/v1/chat/completions`, { method: 'POST', headers, body });
    const unknownKey = await send({ ...floor.headers, authorization: 'Bearer sk-unknown' }, '{}');
    expect(unknownKey.status).toBe(401);
    const malformed = await send(floor.headers, '{"model": "gpt-3.5-turbo", ');
    expect(malformed.status).toBe(400);
    const unpriced = await send(floor.headers, JSON.stringify({ model: 'gpt-4o', messages: [] }));
    expect(unpriced.status).toBe(400);
    const tooLarge = await send(
      floor.headers,
      `{"model": "gpt-3.5-turbo", "x": "${'x'.repeat(9 << 20)}"}`,
    ).catch(() => undefined);
    expect(tooLarge?.status ?? 413).toBe(413);
    for (const response of [unknownKey, malformed, unpriced]) {
      expect(await response.json()).toMatchObject({ error: { type: 'one_api_error' } });
    }
    expect(upstream.state.calls).toBe(callsBefore);
  }, 60_000);

  it('refuses a key without balance, then a user without balance, without an upstream call', async () => {
    const callsBefore = upstream.state.calls;
    const keyId = `(select id from tokens where user_id = ${floor.account.userId})`;

    floor.url = await restartAfter(`update tokens set remain_quota = 0 where id = ${keyId}`);
    floor.process = children.at(-1)!;
    for (const stream of [false, true]) {
      const response = await call(floor, stream);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { message: 'insufficient quota' } });
    }

    floor.url = await restartAfter(
      `update tokens set remain_quota = 1000 where id = ${keyId}; update users set quota = 0 where id = ${floor.account.userId}`,
    );
    floor.process = children.at(-1)!;
    const response = await call(floor, false);
    expect(response.status).toBe(403);
    await response.body?.cancel();

    expect(upstream.state.calls).toBe(callsBefore);
    const billing = await database.billing(floor.account.userId);
    expect(billing.logs).toBe(NON_STREAM_CALLS + STREAM_CALLS);

    // The same key and user with balance again are served: the refusals were for the balance alone.
    floor.url = await restartAfter(`update users set quota = 1000 where id = ${floor.account.userId}`);
    floor.process = children.at(-1)!;
    const served = await call(floor, false);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(reply);
    expect(upstream.state.calls).toBe(callsBefore + 1);
  }, 60_000);

  // PostgreSQL only: a held row lock keeps the floor's transaction from committing. (SQLite commits
  // synchronously in the turn after the answer arrived; a lock there would stall the whole process.)
  it.runIf(kind === 'postgres')(
    "holds each answer, and a stream's [DONE], until its commit",
    async () => {
      const locker = new pg.Client({ connectionString: database.env.SQL_DSN });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query(`select 1 from users where id = ${floor.account.userId} for update`);
        let plainAnswered = false;
        const plain = call(floor, false).then(async (response) => {
          const text = await response.text();
          plainAnswered = true;
          return text;
        });
        const stream = await call(floor, true);
        const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
        let streamed = '';
        while (!/"usage".*\n\n$/s.test(streamed)) {
          const { value, done } = await reader.read();
          if (done) break;
          streamed += value;
        }
        // The floor's transaction waits on the lock: nothing has committed.
        for (;;) {
          const waiting = await locker.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
          );
          if (Number(waiting.rows[0]!.n) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await locker.query('select 1');
        expect(plainAnswered).toBe(false);
        expect(streamed).not.toContain('[DONE]');

        await locker.query('commit');
        expect(await plain).toBe(reply);
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          streamed += value;
        }
        expect(streamed.endsWith('data: [DONE]\n\n')).toBe(true);
      } finally {
        await locker.end();
      }
    },
    60_000,
  );
});
