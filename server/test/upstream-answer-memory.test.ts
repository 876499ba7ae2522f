import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './databases';
import { floods, type Sending } from './fakes/hostile-upstream';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { clientsFor } from './harness';
import { sleep } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { residentBytes, watchPeak } from './process/memory';
import { createChannel, createCustomer } from './relay-setup';

const MB = 1024 * 1024;
/** What the upstream offers: several times RELAY_ANSWER_LIMIT's default (64 MB). */
const ANSWER_BYTES = 400 * MB;

describe('memory under a huge upstream answer (the built server, default limits)', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: TestDatabase;
  let fake: HttpFake;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(openAiHandler()).start(),
    ]);
    server = new ServerProcess(build.entry, await freePort(), database.env);
    await server.start();
    const clients = clientsFor(server.baseUrl);
    await createChannel(await clients.root(), { base_url: fake.url, models: 'gpt-4' });
    key = `sk-${(await createCustomer(clients, 'hugeanswer', { quota: 100_000_000 })).token.key}`;
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
    await fake?.close();
    build?.remove();
  });

  const chat = () =>
    fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4', messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('a 400 MB answer is refused at the limit: 502, the upstream cut off, the memory bounded', async () => {
    // Warm: the route and the database have been used once.
    expect((await chat()).status).toBe(200);
    await sleep(500);
    const before = residentBytes(server.pid);

    const sending: Sending = { sent: 0, finished: false };
    fake.use(floods(sending, ANSWER_BYTES, 200, 'application/json', '{"choices":[{"message":{"content":"'));
    const peak = watchPeak(server.pid);
    let growth = 0;
    const response = await chat().finally(() => {
      growth = peak.stop() - before;
    });
    console.log(
      `upstream answer of ${ANSWER_BYTES / MB} MB: resident memory grew by ${Math.round(growth / MB)} MB; ` +
        `the upstream had sent ${Math.round(sending.sent / MB)} MB when it was cut off`,
    );
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'upstream_answer_too_large' } });
    expect(sending.finished).toBe(false);
    expect(growth, `resident memory grew by ${Math.round(growth / MB)} MB`).toBeLessThan(200 * MB);
    // The server still answers.
    fake.use(openAiHandler());
    expect((await chat()).status).toBe(200);
  }, 120_000);
});
