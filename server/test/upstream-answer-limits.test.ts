import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floods, type Sending } from './fakes/hostile-upstream';
import { type FakeHandler, HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { balances, type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

/** RELAY_ANSWER_LIMIT and RELAY_TIMEOUT of this run, small so that the tests are quick. */
const ANSWER_LIMIT_MB = 1;
const RELAY_TIMEOUT_MS = 2_000;
/** What a hostile upstream offers to send: far more than the limit. */
const HUGE_BYTES = 200 * 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A head, then one byte every 100 ms for `forMs`, then the rest of a valid answer. */
const trickles =
  (contentType: string, head: string, tail: string, forMs: number): FakeHandler =>
  async (_request, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write(head);
    const until = Date.now() + forMs;
    while (Date.now() < until && !res.destroyed) {
      await sleep(100);
      res.write(' ');
    }
    res.end(tail);
  };

const chunk = (content: string) =>
  JSON.stringify({
    id: 'chatcmpl-big',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });

describe('upstream answers are bounded in size and in time', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  const sending: Sending = { sent: 0, finished: false };

  beforeAll(async () => {
    t = await startTestApp({
      env: { RELAY_ANSWER_LIMIT: String(ANSWER_LIMIT_MB), RELAY_TIMEOUT: String(RELAY_TIMEOUT_MS / 1000) },
    });
    fake = await new HttpFake(openAiHandler()).start();
    const root = await t.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-4,tts-1' });
    customer = await createCustomer(t, 'bigans', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const call = (body: Record<string, unknown>, path = '/v1/chat/completions') =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const chat = (stream = false) =>
    call({ model: 'gpt-4', stream, messages: [{ role: 'user', content: 'hi' }] });

  /** Runs `work`, checking that no account was charged or logged and every hold was given back. */
  async function free<T>(work: () => Promise<T>): Promise<T> {
    await t.app.services.relay.settled();
    const before = await balances(t, customer.userId, customer.token.id);
    const logs = (await consumeLogs(t, customer.userId)).length;
    const result = await work();
    await t.app.services.relay.settled();
    expect(await balances(t, customer.userId, customer.token.id)).toEqual(before);
    expect(await consumeLogs(t, customer.userId)).toHaveLength(logs);
    return result;
  }

  describe('RELAY_ANSWER_LIMIT', () => {
    it.each([
      ['a chat answer', () => chat()],
      [
        'a speech answer (audio, passed on as it comes)',
        () => call({ model: 'tts-1', input: 'hi', voice: 'alloy' }, '/v1/audio/speech'),
      ],
    ])('%s beyond it is a 502 before the upstream is done sending, charged nothing', async (_case, send) => {
      fake.use(
        floods(
          sending,
          HUGE_BYTES,
          200,
          'application/json',
          '{"id":"chatcmpl-big","choices":[{"message":{"content":"',
        ),
      );
      const response = await free(send);
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({
        error: { code: 'upstream_answer_too_large', type: 'upstream_error' },
      });
      // The gateway stopped reading near the limit: the upstream was cut off, not read to its end.
      expect(sending.finished).toBe(false);
      expect(sending.sent).toBeLessThan(HUGE_BYTES / 4);
    });

    it('an error body beyond it is refused the same way', async () => {
      fake.use(floods(sending, HUGE_BYTES, 500, 'text/html', '<html>'));
      const response = await free(() => chat());
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: { code: 'upstream_answer_too_large' } });
      expect(sending.finished).toBe(false);
    });

    it('a stream event beyond it ends the stream as broken, billed for what was delivered', async () => {
      fake.use(
        floods(
          sending,
          HUGE_BYTES,
          200,
          'text/event-stream',
          `data: ${chunk('Half an')}\n\ndata: {"choices":"`,
        ),
      );
      await t.app.services.relay.settled();
      const logs = (await consumeLogs(t, customer.userId)).length;
      const response = await chat(true);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('Half an');
      expect(text).not.toContain('[DONE]');
      expect(text).toContain('upstream_answer_too_large');
      expect(sending.finished).toBe(false);
      await t.app.services.relay.settled();
      expect(await consumeLogs(t, customer.userId)).toHaveLength(logs + 1);
    });

    it('an answer within it is relayed whole', async () => {
      fake.use(openAiHandler({ reply: 'y'.repeat(512 * 1024) }));
      const response = await chat();
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { choices: Array<{ message: { content: string } }> };
      expect(answer.choices[0]?.message.content).toHaveLength(512 * 1024);
    });
  });

  describe('RELAY_TIMEOUT bounds the silence between stream events', () => {
    it.each([
      ['bytes that never complete an event', 'x'],
      ['comments alone', ': keep-alive\n\n'],
    ])(
      '%s: the stream ends as broken after RELAY_TIMEOUT, billed for what was delivered',
      async (_case, drip) => {
        fake.use(async (_request, res: http.ServerResponse) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`data: ${chunk('Half an')}\n\n`);
          const until = Date.now() + RELAY_TIMEOUT_MS * 4;
          while (Date.now() < until && !res.destroyed) {
            await sleep(100);
            res.write(drip);
          }
          res.end();
        });
        await t.app.services.relay.settled();
        const logs = (await consumeLogs(t, customer.userId)).length;
        const started = performance.now();
        const response = await chat(true);
        const text = await response.text();
        const ms = performance.now() - started;
        expect(text).toContain('Half an');
        expect(text).not.toContain('[DONE]');
        expect(text).toContain('upstream_timeout');
        expect(ms).toBeGreaterThanOrEqual(RELAY_TIMEOUT_MS - 50);
        expect(ms).toBeLessThan(RELAY_TIMEOUT_MS + 1_500);
        await t.app.services.relay.settled();
        expect(await consumeLogs(t, customer.userId)).toHaveLength(logs + 1);
      },
    );
  });

  describe('RELAY_TIMEOUT covers the whole of an answer read whole', () => {
    it('a non-stream answer that trickles after its head is a 504 by the end of the budget, charged nothing', async () => {
      fake.use(
        trickles(
          'application/json',
          '{"id":"chatcmpl-slow","object":"chat.completion",',
          '"choices":[{"index":0,"message":{"role":"assistant","content":"late"},"finish_reason":"stop"}]}',
          RELAY_TIMEOUT_MS * 4,
        ),
      );
      const started = performance.now();
      const response = await free(() => chat());
      const ms = performance.now() - started;
      expect(response.status).toBe(504);
      expect(await response.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
      expect(ms).toBeGreaterThanOrEqual(RELAY_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(RELAY_TIMEOUT_MS + 1_500);
    });
  });
});
