import { describe, expect, it } from 'vitest';
import { TEST_DIALECT } from './databases';
import { openAiHandler } from './fakes/openai';
import { builtServerRig } from './process/built-server-rig';
import { freshRequest } from './process/fresh-connection';

const METRICS_TOKEN = 'cluster-metrics-token-42';

describe(`/metrics with WORKERS=2 (${TEST_DIALECT})`, () => {
  const rig = builtServerRig({
    upstream: openAiHandler({ reply: 'hello there' }),
    env: { WORKERS: '2', METRICS_TOKEN },
    customers: { clmetrics: 10_000_000 },
  });

  it("adds up both workers' counts, whichever worker answers the scrape", async () => {
    const { server, channelId: channel } = rig;
    // Each call on a connection of its own: the workers take them in turn.
    for (let i = 0; i < 6; i++) {
      const answer = await freshRequest(server.baseUrl, 'POST', '/v1/chat/completions', {
        headers: { authorization: `Bearer ${rig.key('clmetrics')}` },
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
