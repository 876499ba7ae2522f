import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { Client } from './harness';
import { sleep } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { createChannel } from './relay-setup';
import { waitUntil } from './wait';

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

describe(`CHANNEL_TEST_FREQUENCY with WORKERS=2 (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let build: Awaited<ReturnType<typeof buildServer>>;
  let server: ServerProcess;
  const upstream = new HttpFake(openAiHandler());

  beforeAll(async () => {
    [build, database] = await Promise.all([buildServer(), createTestDatabase(), upstream.start()]);
    server = new ServerProcess(build.entry, await freePort(), {
      ...database.env,
      WORKERS: '2',
      // 0.01 minutes: a run every 0.6 s.
      CHANNEL_TEST_FREQUENCY: '0.01',
      POLLING_INTERVAL: '0',
    });
    await server.start();
    const root = new Client(server.baseUrl);
    await root.login('root', '123456');
    await createChannel(root, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
    await upstream.close();
    build?.remove();
  });

  it('tests the channels in one worker only, on the period', async () => {
    const runs = () => logLines(server.output).filter((line) => line.msg === 'testing all channels');
    const deadline = Date.now() + 15_000;
    while (upstream.requests.length < 4 && Date.now() < deadline) await sleep(100);
    // Read the test calls before the log: each run's start line comes before its call. The line
    // reaches this process through the workers' pipes and the call over HTTP, so the line of the
    // last run may still be on its way: wait for it (a run of another process never comes).
    const calls = upstream.requests.length;
    await waitUntil(() => runs().length >= calls, { what: 'the runs’ start lines' }).catch(() => undefined);
    const started = runs();
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(new Set(started.map((line) => line.worker))).toEqual(new Set([1]));
    // One test call a run at most (runs before the channel existed made none): no other process tests too.
    expect(calls).toBeLessThanOrEqual(started.length);
  });
});
