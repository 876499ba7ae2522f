import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { logCapture, startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

/** How long the relay keeps a key read from the database before reading it again (IdentityCache). */
const KEY_TTL_MS = 10_000;
const CALLS_AT_ONCE = 16;

// A busy key whose cached row expired used to be read by every call in flight at that moment: on a
// networked database, 64 reads of one row queued ahead of the settlements' commits, a stall of every
// call for a round trip of the whole pool (docs/benchmarks.md, "A busy key expiring").
describe('a busy key is read from the database once, whatever number of calls use it', () => {
  let t: TestApp;
  let upstream: HttpFake;
  let customer: Customer;
  let now = Date.now();
  const log = logCapture();

  /** The relay's reads of a key by its value so far (DEBUG_SQL's lines). */
  const keyReads = () =>
    log
      .text()
      .split('\n')
      .filter((line) => /"sql":"select \* from [`\\"]+tokens[`\\"]+ where [`\\"]+key[`\\"]+ = /.test(line))
      .length;

  // Connections open ahead, so that the calls sent at once reach the server in the same moment.
  let pool: Pool;
  const call = async () => {
    const answer = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer sk-${customer.token.key}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    const text = await answer.body.text();
    expect(answer.statusCode, text).toBe(200);
    expect(text).toContain('"hi from upstream"');
  };
  const callsAtOnce = () => Promise.all(Array.from({ length: CALLS_AT_ONCE }, call));

  beforeAll(async () => {
    upstream = await new HttpFake(openAiHandler({ reply: 'hi from upstream' })).start();
    t = await startTestApp({ env: { DEBUG_SQL: 'true' }, logger: log.logger, clock: () => now });
    await createChannel(await t.root(), {
      base_url: upstream.url,
      models: 'gpt-4o-mini',
    });
    customer = await createCustomer(t, 'busy-key', { quota: 100_000_000 });
    pool = new Pool(t.baseUrl, { connections: CALLS_AT_ONCE });
    await callsAtOnce();
  });
  afterAll(async () => {
    await pool?.close();
    await t?.close();
    await upstream?.close();
  });

  it('expired: the calls in flight wait for one read of it', async () => {
    const before = keyReads();
    expect(before).toBeGreaterThan(0);
    now += KEY_TTL_MS + 1;
    await callsAtOnce();
    expect(keyReads()).toBe(before + 1);
  });

  it('near its end: read again in the background while still served, so it does not expire while in use', async () => {
    const before = keyReads();
    // 85 % of its life: still served, and read again without the call waiting for it.
    now += KEY_TTL_MS * 0.85;
    await call();
    await vi.waitFor(() => expect(keyReads()).toBe(before + 1));
    // Past the first read's expiry, within the second's: served from memory, nothing read.
    now += KEY_TTL_MS * 0.5;
    await callsAtOnce();
    expect(keyReads()).toBe(before + 1);
  });
});
