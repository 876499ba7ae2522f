import { CONSOLE_CALL_HEADER, CONSOLE_CALL_VALUE } from '@switchyard/contract/console-call';
import type { LogEntry } from '@switchyard/contract/logs';
import type { PlaygroundKey } from '@switchyard/contract/playground';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { balances, type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';
import { waitUntil } from './wait';

// gpt-3.5-turbo (ratio 0.25, completion ratio 3) with the fake's 11 + 7 tokens.
const COST = Math.ceil((11 + 7 * 3) * 0.25);

describe('the playground', () => {
  let t: TestApp;
  let fake: HttpFake;
  let alice: Customer;

  const chat = (client: Client, body: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(`${t.baseUrl}/api/playground/chat/completions`, {
      method: 'POST',
      headers: {
        cookie: client.cookie,
        'content-type': 'application/json',
        [CONSOLE_CALL_HEADER]: CONSOLE_CALL_VALUE,
      },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }], ...body }),
      signal,
    });

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp();
    const root = await t.root();
    await root.put('/api/option/', { key: 'PreConsumedQuota', value: '0' });
    await createChannel(root, { base_url: fake.url });
    alice = await createCustomer(t, 'alice');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('offers the user their keys masked, never whole', async () => {
    const { body, text } = await alice.client.get<EnvelopeBody<PlaygroundKey[]>>('/api/playground/keys');
    expect(body.data).toEqual([
      {
        id: alice.token.id,
        name: 'alice-key',
        masked: `sk-${alice.token.key.slice(0, 4)}…${alice.token.key.slice(-4)}`,
      },
    ]);
    expect(text).not.toContain(alice.token.key);
  });

  it('streams the answer with the chosen key, billed to it and logged once under the request id', async () => {
    const before = await balances(t, alice.userId, alice.token.id);
    const response = await chat(alice.client, { token_id: alice.token.id, temperature: 0.5, max_tokens: 50 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // The console's own answer, signed in by its session: no origin may read it (the relay's allow any).
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const requestId = response.headers.get('x-oneapi-request-id')!;
    const text = await response.text();
    expect(text).toContain('"content":"Hello"');
    expect(text).toContain('data: [DONE]');
    expect(fake.last().json).toMatchObject({ temperature: 0.5, max_tokens: 50, stream: true });
    expect(fake.last().headers.authorization).toBe('Bearer sk-upstream-key');
    await t.app.services.relay.settled();
    const logs = (await consumeLogs(t, alice.userId)).filter((log) => log.request_id === requestId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ token_name: 'alice-key', quota: COST });
    expect(Boolean(logs[0]!.is_stream)).toBe(true);
    const after = await balances(t, alice.userId, alice.token.id);
    expect(before.quota - after.quota).toBe(COST);
    expect(after.tokenUsed - before.tokenUsed).toBe(COST);
    // The console reads the answer's cost by its request id.
    const found = await alice.client.get<EnvelopeBody<LogEntry[]>>(
      `/api/log/self/search?keyword=${requestId}`,
    );
    expect(found.body.data?.map((log) => log.quota)).toEqual([COST]);
  });

  it("bills the temporary key to the user's own quota, leaving the keys alone", async () => {
    const before = await balances(t, alice.userId, alice.token.id);
    const response = await chat(alice.client, {});
    await response.text();
    await t.app.services.relay.settled();
    const after = await balances(t, alice.userId, alice.token.id);
    expect(before.quota - after.quota).toBe(COST);
    expect(after.tokenUsed).toBe(before.tokenUsed);
    expect((await consumeLogs(t, alice.userId)).at(-1)).toMatchObject({
      token_name: 'playground',
      quota: COST,
    });
  });

  it("refuses another user's key, an unknown one and a malformed chat, with nothing sent upstream", async () => {
    const mallory = await createCustomer(t, 'mallory');
    const calls = fake.requests.length;
    for (const body of [
      { token_id: alice.token.id },
      { token_id: 999_999 },
      { messages: 'hi' },
      { messages: [{ role: 'tool', content: 'x' }] },
      { temperature: 9 },
      { token_id: String(mallory.token.id) },
      { messages: [{ role: 'user', content: 'x'.repeat(100_001) }] },
    ]) {
      const response = await chat(mallory.client, body);
      const answer = (await response.json()) as EnvelopeBody;
      expect(answer.success, JSON.stringify(body)).toBe(false);
    }
    // A model no channel serves: the relay's refusal, in OpenAI's shape, never a 500.
    const unknown = await chat(mallory.client, { model: 'no-such-model' });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(unknown.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await unknown.json()) as { error?: { message?: string } }).error?.message).toBeTruthy();
    // A body past the console API's limit is refused before it is read.
    const huge = await chat(mallory.client, { messages: [{ role: 'user', content: 'x'.repeat(2_000_000) }] });
    expect(await huge.json()).toMatchObject({ success: false, code: 'body_too_large' });
    expect(fake.requests.length).toBe(calls);
    expect(await consumeLogs(t, mallory.userId)).toHaveLength(0);
    const visitor = await fetch(`${t.baseUrl}/api/playground/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CONSOLE_CALL_HEADER]: CONSOLE_CALL_VALUE },
      body: '{}',
    });
    expect(visitor.status).toBe(401);
  });

  it('stops upstream when the console aborts mid-stream, billing what was produced once', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    let upstreamClosed = false;
    fake.use(async (request, res) => {
      res.on('close', () => {
        upstreamClosed = true;
      });
      await openAiHandler({ reply: words, chunkDelayMs: 50, usage: null })(request, res);
    });
    const bob = await createCustomer(t, 'bob');
    const before = await balances(t, bob.userId, bob.token.id);
    const controller = new AbortController();
    const response = await chat(bob.client, { token_id: bob.token.id }, controller.signal);
    const reader = response.body!.getReader();
    let received = '';
    while ((received.match(/data: /g) ?? []).length < 3) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended after: ${received}`);
      received += new TextDecoder().decode(value);
    }
    controller.abort();
    await waitUntil(() => upstreamClosed, { what: 'the upstream answer to be closed', timeoutMs: 5_000 });
    await t.app.services.relay.settled();
    const logs = await consumeLogs(t, bob.userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.completion_tokens).toBeGreaterThan(0);
    const after = await balances(t, bob.userId, bob.token.id);
    expect(before.quota - after.quota).toBe(Number(logs[0]!.quota));
    expect(after.held).toBe(0);
    fake.use(openAiHandler());
  });
});
