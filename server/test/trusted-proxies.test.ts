import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { createCustomer } from './relay-setup';

/** A peer such as Docker's or Kubernetes' SNAT address: private, yet not a proxy of ours by default. */
const PEER = '172.17.0.1';

/** One call from PEER, claiming in X-Forwarded-For to come from `forwardedFor`. */
const fromPeer = (t: TestApp, url: string, forwardedFor: string, headers: Record<string, string> = {}) =>
  t.app.server.inject({
    method: 'GET',
    url,
    remoteAddress: PEER,
    headers: { 'x-forwarded-for': forwardedFor, ...headers },
  });

/** The critical calls allowed per address (the setup's own sign-ins from loopback count apart). */
const LIMIT = 10;

/** LIMIT + 1 critical calls from PEER, each claiming another client address. */
async function forgedStates(t: TestApp): Promise<number[]> {
  const statuses: number[] = [];
  for (let call = 1; call <= LIMIT + 1; call++)
    statuses.push((await fromPeer(t, '/api/oauth/state', `203.0.113.${call}`)).statusCode);
  return statuses;
}

describe.each([
  ['by default (loopback only)', {}, false],
  ['when TRUSTED_PROXIES names the peer', { TRUSTED_PROXIES: '172.16.0.0/12' }, true],
])('X-Forwarded-For from a private peer %s', (_label, env, trusted) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({
      env: { ...env, CRITICAL_RATE_LIMIT: String(LIMIT), CRITICAL_RATE_LIMIT_WINDOW: '1200' },
    });
    const fenced = await createCustomer(t, 'fenced', { token: { subnet: '10.1.0.0/16' } });
    key = `sk-${fenced.token.key}`;
  });
  afterAll(() => t.close());

  it(trusted ? 'names the client for the rate limit' : 'is ignored by the rate limit', async () => {
    const allowed: number[] = Array(LIMIT).fill(200);
    expect(await forgedStates(t)).toEqual([...allowed, trusted ? 200 : 429]);
  });

  it(trusted ? "names the client for a key's subnet" : "is ignored by a key's subnet", async () => {
    const models = await fromPeer(t, '/v1/models', '10.1.2.3', { authorization: `Bearer ${key}` });
    if (trusted) {
      expect(models.statusCode).toBe(200);
    } else {
      expect(models.statusCode).toBe(403);
      expect(models.json()).toMatchObject({ error: { code: 'ip_not_allowed' } });
    }
  });
});
