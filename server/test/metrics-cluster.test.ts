import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { clientsFor } from './harness';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { freshRequest } from './process/fresh-connection';
import { createChannel, createCustomer } from './relay-setup';

const METRICS_TOKEN = 'cluster-metrics-token-42';

describe(`/metrics with WORKERS=2 (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let fake: HttpFake;
  let build: Awaited<ReturnType<typeof buildServer>>;
  let server: ServerProcess;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(openAiHandler({ reply: 'hello there' })).start(),
    ]);
    server = new ServerProcess(build.entry, await freePort(), {
      ...database.env,
      WORKERS: '2',
      METRICS_TOKEN,
    });
    await server.start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
    await fake?.close();
    build?.remove();
  });

  it("adds up both workers' counts, whichever worker answers the scrape", async () => {
    const clients = clientsFor(server.baseUrl);
    const channel = await createChannel(await clients.root(), { base_url: fake.url });
    const customer = await createCustomer(clients, 'clmetrics', { quota: 10_000_000 });
    // Each call on a connection of its own: the workers take them in turn.
    for (let i = 0; i < 6; i++) {
      const answer = await freshRequest(server.baseUrl, 'POST', '/v1/chat/completions', {
        headers: { authorization: `Bearer sk-${customer.token.key}` },
        body: { model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(answer.status).toBe(200);
    }
    const series = `switchyard_relay_requests_total{endpoint="chat",model="gpt-3.5-turbo",channel="${channel}",outcome="success"} 6`;
    for (let scrape = 0; scrape < 2; scrape++) {
      const metrics = await freshRequest(server.baseUrl, 'GET', '/metrics', {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain(series);
      expect(metrics.text).toContain('nodejs_eventloop_lag_p99_seconds');
    }
    const refused = await freshRequest(server.baseUrl, 'GET', '/metrics');
    expect(refused.status).toBe(401);
  });
});
