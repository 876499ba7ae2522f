import fs from 'node:fs';
import {
  audioRatiosOf,
  DEFAULT_AUDIO_COMPLETION_RATIO_JSON,
  DEFAULT_AUDIO_RATIO_JSON,
} from '@switchyard/contract/audio-ratios';
import { resolveCacheReadRatio } from '@switchyard/contract/cache-ratios';
import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HOLD_OUTPUT_TOKENS } from '../src/relay/pipeline/realtime/session-funds';
import { RealtimeFake, type RealtimeResponseScript, type RealtimeTokens } from './fakes/openai-realtime';
import { type Client, startTestApp, type TestApp } from './harness';
import { awayFromMinuteEnd } from './key-limits-helpers';
import { books, expectBalancedBooks } from './ledger-books';
import { RealtimeTestClient } from './realtime-client';
import { type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';
import { tlsFront } from './tls-front';
import { waitFor, waitUntil } from './wait';

const UPSTREAM_KEY = 'sk-realtime-upstream-key';
const MODEL = 'gpt-realtime';
const AZURE_MODEL = 'gpt-4o-realtime-preview';
const USER_FUNDS = 1_000_000;
const TOKEN_FUNDS = 1_000_000;

/** A response's price worked out by hand from the default prices: each part at its own rate. */
function handPrice(model: string, tokens: RealtimeTokens): number {
  const audio = audioRatiosOf(model)!;
  const cachedText = tokens.cachedText ?? 0;
  const cachedAudio = tokens.cachedAudio ?? 0;
  const units =
    tokens.inputText -
    cachedText +
    cachedText * resolveCacheReadRatio(model) +
    (tokens.inputAudio - cachedAudio) * audio.input +
    cachedAudio * audio.cachedInput +
    tokens.outputText * resolveCompletionRatio(model) +
    tokens.outputAudio * audio.output;
  return Math.ceil(Number((units * resolveModelRatio(model)).toPrecision(12)));
}

/** A session's first hold, worked out by hand: PreConsumedQuota and a whole answer of audio output. */
function firstHold(preConsumed: number): number {
  const audio = audioRatiosOf(MODEL)!;
  return Math.ceil((preConsumed + SESSION_HOLD_OUTPUT_TOKENS * audio.output) * resolveModelRatio(MODEL));
}

const respond = (
  tokens: RealtimeTokens,
  extra: Partial<RealtimeResponseScript> = {},
): RealtimeResponseScript => ({
  text: 'Hello there',
  audio: ['AAAA', 'BBBB'],
  tokens,
  ...extra,
});

describe('the Realtime API through the gateway, billed per response', () => {
  let t: TestApp;
  let root: Client;
  let fake: RealtimeFake;
  let sessionUrl: (model?: string) => string;

  beforeAll(async () => {
    fake = await new RealtimeFake(UPSTREAM_KEY).start();
    t = await startTestApp({ env: { REALTIME_IDLE_TIMEOUT: '30' } });
    root = await t.root();
    await createChannel(root, {
      name: 'openai',
      type: 1,
      key: UPSTREAM_KEY,
      base_url: fake.url,
      models: MODEL,
    });
    await createChannel(root, {
      name: 'azure',
      type: 3,
      key: UPSTREAM_KEY,
      base_url: fake.url,
      models: AZURE_MODEL,
      config: JSON.stringify({ api_version: '2024-10-01-preview' }),
    });
    sessionUrl = (model = MODEL) => `${t.baseUrl.replace(/^http/, 'ws')}/v1/realtime?model=${model}`;
  });

  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const bearer = (customer: Customer) => ({ authorization: `Bearer sk-${customer.token.key}` });

  /** Waits for the gateway to end every session and write what they owe, then checks the books. */
  async function settledBooks(customer: Customer, userFunds = USER_FUNDS) {
    await waitUntil(() => t.app.services.realtime.openSessions === 0, { what: 'every session ended' });
    await t.app.services.billing.settled();
    return expectBalancedBooks(t, {
      userId: customer.userId,
      tokenId: customer.token.id,
      userFunds,
      tokenFunds: TOKEN_FUNDS,
    });
  }

  it('passes events both ways and bills each response.done with one log at its own rates', async () => {
    const customer = await createCustomer(t, 'rt_several');
    const usages: RealtimeTokens[] = [
      { inputText: 120, inputAudio: 0, outputText: 40, outputAudio: 0 },
      {
        inputText: 200,
        inputAudio: 900,
        cachedText: 100,
        cachedAudio: 300,
        outputText: 30,
        outputAudio: 700,
      },
      { inputText: 10, inputAudio: 50, outputText: 0, outputAudio: 400 },
    ];
    fake.responses = usages.map((tokens) => respond(tokens));
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    expect((await client.nth('session.created')).session).toMatchObject({ model: MODEL });
    client.send({ type: 'session.update', session: { instructions: 'Be brief.' } });
    expect((await client.nth('session.updated')).session).toMatchObject({ instructions: 'Be brief.' });
    client.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
    });
    await client.nth('conversation.item.created');
    for (let index = 1; index <= usages.length; index++) {
      client.send({ type: 'response.create' });
      await client.nth('response.done', index);
    }
    const deltas = client.events.filter((event) => event.type === 'response.output_audio.delta');
    expect(deltas.map((event) => event.delta)).toEqual(['AAAA', 'BBBB', 'AAAA', 'BBBB', 'AAAA', 'BBBB']);
    expect(client.events.filter((event) => event.type === 'response.output_text.delta')).toHaveLength(3);
    // The provider's own usage reaches the client untouched.
    const reported = (await client.nth('response.done', 2)).response as { usage: { input_tokens: number } };
    expect(reported.usage.input_tokens).toBe(1100);

    // The provider saw the channel's key and the GA interface (no beta header), never the client's key.
    const upstream = fake.sessions.at(-1)!;
    expect(upstream.path).toBe('/v1/realtime');
    expect(upstream.query.get('model')).toBe(MODEL);
    expect(upstream.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(upstream.headers['openai-beta']).toBeUndefined();
    // First the gateway's cap on every response, then the client's events (its update passed whole).
    expect(upstream.events[0]).toEqual({
      type: 'session.update',
      session: { type: 'realtime', max_output_tokens: SESSION_HOLD_OUTPUT_TOKENS },
    });
    expect(upstream.events[1]).toEqual({ type: 'session.update', session: { instructions: 'Be brief.' } });
    expect(upstream.events.map((event) => event.type)).toEqual([
      'session.update',
      'session.update',
      'conversation.item.create',
      'response.create',
      'response.create',
      'response.create',
    ]);

    client.socket.close();
    const now = await settledBooks(customer);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual(usages.map((tokens) => handPrice(MODEL, tokens)));
    expect(logs.map((log) => [log.prompt_tokens, log.completion_tokens])).toEqual([
      [120, 40],
      [1100, 730],
      [60, 400],
    ]);
    expect(USER_FUNDS - now.quota).toBe(logs.reduce((sum, log) => sum + Number(log.quota), 0));
    await fake.allClosed();
  });

  it('ends a session the account can no longer pay for with an error event, the books exact', async () => {
    const hold = firstHold(t.app.services.options.number('PreConsumedQuota'));
    const tokens: RealtimeTokens = { inputText: 100, inputAudio: 200, outputText: 50, outputAudio: 300 };
    const cost = handPrice(MODEL, tokens);
    // Enough for the first hold; what is left after one response is not enough for the next.
    const funds = hold + cost - 1;
    const customer = await createCustomer(t, 'rt_short', { quota: funds });
    fake.responses = [respond(tokens)];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await client.nth('session.created');
    client.send({ type: 'response.create' });
    const error = await client.nth('error');
    expect(error.error).toMatchObject({ code: 'insufficient_user_quota' });
    // The response that was paid for arrived whole before the error.
    expect(client.types().slice(-2)).toEqual(['response.done', 'error']);
    expect((await client.closed).code).toBe(1008);
    await fake.allClosed();
    await settledBooks(customer, funds);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([cost]);
  });

  it('caps every response at what the hold covers: a long answer never charges past its hold', async () => {
    const hold = firstHold(t.app.services.options.number('PreConsumedQuota'));
    // Left alone, 20,000 audio tokens would cost several holds; the provider stops at the cap.
    const asked: RealtimeTokens = { inputText: 100, inputAudio: 0, outputText: 24, outputAudio: 20_000 };
    const capped: RealtimeTokens = { ...asked, outputAudio: SESSION_HOLD_OUTPUT_TOKENS - 24 };
    expect(handPrice(MODEL, asked)).toBeGreaterThan(3 * hold);
    expect(handPrice(MODEL, capped)).toBeLessThanOrEqual(hold);
    const funds = hold + 1;
    const customer = await createCustomer(t, 'rt_long', { quota: funds });
    fake.responses = [respond(asked)];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await client.nth('session.created');
    // A client asking for more than the cap gets the cap.
    client.send({ type: 'response.create', response: { max_output_tokens: 'inf' } });
    const done = await client.nth('response.done');
    expect((done.response as { status: string }).status).toBe('incomplete');
    const error = await client.nth('error');
    expect(error.error).toMatchObject({ code: 'insufficient_user_quota' });
    expect((await client.closed).code).toBe(1008);
    const upstream = fake.sessions.at(-1)!;
    expect(upstream.events.slice(0, 2)).toEqual([
      {
        type: 'session.update',
        session: { type: 'realtime', max_output_tokens: SESSION_HOLD_OUTPUT_TOKENS },
      },
      { type: 'response.create', response: { max_output_tokens: SESSION_HOLD_OUTPUT_TOKENS } },
    ]);
    // The gateway's own session.update is not the client's business.
    expect(client.types()).not.toContain('session.updated');
    await fake.allClosed();
    const now = await settledBooks(customer, funds);
    const logs = await consumeLogs(t, customer.userId);
    // Charged whole, within its hold: nothing was cut to what was left.
    expect(logs.map((log) => [Number(log.quota), log.content.includes('charged the')])).toEqual([
      [handPrice(MODEL, capped), false],
    ]);
    expect(now.quota).toBe(funds - handPrice(MODEL, capped));
  });

  it('holds input beyond the allowance before the charge; an account that cannot is never overdrawn', async () => {
    const hold = firstHold(t.app.services.options.number('PreConsumedQuota'));
    // A conversation far longer than the first hold's input allowance.
    const tokens: RealtimeTokens = { inputText: 0, inputAudio: 20_000, outputText: 10, outputAudio: 0 };
    expect(handPrice(MODEL, tokens)).toBeGreaterThan(hold + 1);
    const funds = hold + 1;
    const customer = await createCustomer(t, 'rt_context', { quota: funds });
    fake.responses = [respond(tokens)];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await client.nth('session.created');
    client.send({ type: 'response.create' });
    expect((await client.nth('error')).error).toMatchObject({ code: 'insufficient_user_quota' });
    expect((await client.closed).code).toBe(1008);
    await fake.allClosed();
    const now = await settledBooks(customer, funds);
    // What was left, and not a quota more.
    expect([now.quota, now.usedQuota]).toEqual([0, funds]);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([funds]);
  });

  it("counts each response's tokens in the key's tokens per minute, refusing the next response.create once used up", async () => {
    await awayFromMinuteEnd();
    const customer = await createCustomer(t, 'rt_tpm', { token: { tpm_limit: 1000 } });
    // 1,100 tokens: one response uses the key's minute up.
    fake.responses = [respond({ inputText: 600, inputAudio: 0, outputText: 500, outputAudio: 0 })];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await client.nth('session.created');
    client.send({ type: 'response.create' });
    await client.nth('response.done');
    client.send({ type: 'response.create' });
    const error = await client.nth('error');
    expect(error.error).toMatchObject({ type: 'rate_limit_exceeded', code: 'tokens_per_minute_exceeded' });
    // The refused response.create never reached the provider; the session stays open for other events.
    expect(fake.sessions.at(-1)!.events.filter((event) => event.type === 'response.create')).toHaveLength(1);
    client.socket.close();
    await settledBooks(customer);
    // A new session of the same key is refused in the same minute, before the upgrade.
    const next = await RealtimeTestClient.open(sessionUrl(), { headers: bearer(customer) });
    expect(next).toMatchObject({ status: 429, body: { error: { code: 'tokens_per_minute_exceeded' } } });
  });

  it('bills audio at the AudioRatio and AudioCompletionRatio root sets, at once', async () => {
    const customer = await createCustomer(t, 'rt_audio');
    const tokens: RealtimeTokens = { inputText: 100, inputAudio: 400, outputText: 20, outputAudio: 300 };
    const run = async () => {
      fake.responses = [respond(tokens)];
      const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
      await client.nth('session.created');
      client.send({ type: 'response.create' });
      await client.nth('response.done');
      client.socket.close();
      await settledBooks(customer, USER_FUNDS);
      return Number((await consumeLogs(t, customer.userId)).at(-1)?.quota);
    };
    expect(await run()).toBe(handPrice(MODEL, tokens));
    const set = (key: string, value: string) => root.put('/api/option/', { key, value });
    expect((await set('AudioRatio', '{"gpt-realtime":20}')).body).toMatchObject({ success: true });
    expect((await set('AudioCompletionRatio', '{"gpt-realtime":3}')).body).toMatchObject({ success: true });
    expect((await set('AudioRatio', '{"gpt-realtime":"x"}')).body).toMatchObject({ success: false });
    try {
      const units = 100 + 400 * 20 + 20 * resolveCompletionRatio(MODEL) + 300 * 20 * 3;
      expect(await run()).toBe(Math.ceil(Number((units * resolveModelRatio(MODEL)).toPrecision(12))));
    } finally {
      await set('AudioRatio', DEFAULT_AUDIO_RATIO_JSON);
      await set('AudioCompletionRatio', DEFAULT_AUDIO_COMPLETION_RATIO_JSON);
    }
  });

  it('refuses a session the account cannot hold for, before the upgrade', async () => {
    const customer = await createCustomer(t, 'rt_poor', { quota: 10 });
    const refused = await RealtimeTestClient.open(sessionUrl(), { headers: bearer(customer) });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'insufficient_user_quota' } } });
    await settledBooks(customer, 10);
  });

  it('cancels the response in progress when the client leaves, and bills what the provider reports of it', async () => {
    const customer = await createCustomer(t, 'rt_leaves');
    const cancelled: RealtimeTokens = { inputText: 80, inputAudio: 0, outputText: 5, outputAudio: 60 };
    fake.responses = [
      respond(
        { inputText: 0, inputAudio: 0, outputText: 0, outputAudio: 0 },
        { holdOpen: { cancelledTokens: cancelled } },
      ),
    ];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    client.send({ type: 'response.create' });
    await client.nth('response.output_audio.delta', 2);
    client.socket.terminate();
    await fake.allClosed();
    const upstream = fake.sessions.at(-1)!;
    expect(upstream.events.map((event) => event.type)).toEqual([
      'session.update',
      'response.create',
      'response.cancel',
    ]);
    expect(upstream.events[2]).toMatchObject({ response_id: expect.stringMatching(/^resp_\d+_1$/) });
    await settledBooks(customer);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([handPrice(MODEL, cancelled)]);
  });

  it('at shutdown cancels the response in progress, bills its report and tells the client', async () => {
    const customer = await createCustomer(t, 'rt_shutdown');
    const cancelled: RealtimeTokens = { inputText: 40, inputAudio: 100, outputText: 0, outputAudio: 90 };
    const quiet: RealtimeTokens = { inputText: 0, inputAudio: 0, outputText: 0, outputAudio: 0 };
    fake.responses = [respond(quiet, { holdOpen: { cancelledTokens: cancelled } })];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    client.send({ type: 'response.create' });
    await client.nth('response.output_audio.delta', 2);
    // What the app's shutdown does before it closes the books.
    await t.app.services.realtime.close();
    expect((await client.nth('response.done')).response).toMatchObject({ status: 'cancelled' });
    expect((await client.nth('error')).error).toMatchObject({ code: 'server_shutting_down' });
    expect((await client.closed).code).toBe(1001);
    await settledBooks(customer);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([handPrice(MODEL, cancelled)]);
  });

  it('settles what was reported when the provider drops the connection, and tells the client', async () => {
    const customer = await createCustomer(t, 'rt_dropped');
    const first: RealtimeTokens = { inputText: 50, inputAudio: 100, outputText: 20, outputAudio: 80 };
    fake.responses = [respond(first), respond(first, { dropConnection: true })];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    client.send({ type: 'response.create' });
    await client.nth('response.done');
    client.send({ type: 'response.create' });
    const error = await client.nth('error');
    expect(error.error).toMatchObject({ type: 'server_error', code: 'upstream_closed' });
    expect((await client.closed).code).toBe(1011);
    await settledBooks(customer);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([handPrice(MODEL, first)]);
  });

  it('stops reading the provider while the client does not read, and delivers everything once it does', async () => {
    const customer = await createCustomer(t, 'rt_slow');
    const tokens: RealtimeTokens = { inputText: 10, inputAudio: 0, outputText: 0, outputAudio: 1000 };
    // Half-megabyte deltas, more than the kernel can hold between the fake and the gateway (the fake's
    // send buffer and the gateway's receive buffer, each grown as far as this machine lets it) on top of
    // what the gateway keeps and the client's side holds: so what the gateway does not read waits in
    // the fake. (24 MB once left the fake whole in a CI run here, where a receive buffer may grow to
    // 32 MB.)
    const offered = largestSocketBuffer('rmem') + 2 * largestSocketBuffer('wmem') + 16 * 1024 * 1024;
    const chunks = Array.from({ length: Math.ceil(offered / (512 * 1024)) }, (_, index) =>
      String(index)
        .padStart(4, '0')
        .repeat(128 * 1024),
    );
    fake.responses = [respond(tokens, { audio: chunks })];
    const client = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await client.nth('session.created');
    client.socket.pause();
    client.send({ type: 'response.create' });
    const upstream = await waitFor(
      () => {
        const session = fake.sessions.at(-1);
        return session?.events.some((event) => event.type === 'response.create') ? session : undefined;
      },
      {
        what: 'the provider got response.create',
      },
    );
    // All of it offered to a client that reads nothing. The gateway stops reading the provider once 4 MB
    // wait for the client: what waits reaches that, then, watched for three seconds, never grows much
    // beyond it (a gateway that kept reading would hold it all).
    const realtime = t.app.services.realtime;
    await waitUntil(() => realtime.waitingForClients > 4 * 1024 * 1024, {
      what: '4 MB waiting for the client',
      timeoutMs: 20_000,
    });
    let mostWaiting = 0;
    for (const watchUntil = Date.now() + 3_000; Date.now() < watchUntil; ) {
      mostWaiting = Math.max(mostWaiting, realtime.waitingForClients);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(mostWaiting).toBeLessThan(6 * 1024 * 1024);
    expect(upstream.unsent()).toBeGreaterThan(0);
    client.socket.resume();
    await client.nth('response.done', 1, 30_000);
    const deltas = client.events.filter((event) => event.type === 'response.output_audio.delta');
    expect(deltas.map((event) => event.delta)).toEqual(chunks);
    client.socket.close();
    await settledBooks(customer);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([handPrice(MODEL, tokens)]);
  }, 60_000);

  it('refuses a bad key, a model the key may not use and a model nobody serves before the upgrade', async () => {
    const noKey = await RealtimeTestClient.open(sessionUrl());
    expect(noKey).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
    const badKey = await RealtimeTestClient.open(sessionUrl(), {
      headers: { authorization: 'Bearer sk-nope' },
    });
    expect(badKey).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
    const limited = await createCustomer(t, 'rt_limited', { token: { models: 'gpt-4o-mini' } });
    const notAllowed = await RealtimeTestClient.open(sessionUrl(), { headers: bearer(limited) });
    expect(notAllowed).toMatchObject({ status: 403, body: { error: { code: 'model_not_allowed' } } });
    const customer = await createCustomer(t, 'rt_unknown');
    const unknown = await RealtimeTestClient.open(sessionUrl('gpt-nothing'), { headers: bearer(customer) });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'model_not_found' } } });
    const noModel = await RealtimeTestClient.open(sessionUrl(''), { headers: bearer(customer) });
    expect(noModel).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
    // Not a WebSocket at all.
    const plain = await fetch(`${t.baseUrl}/v1/realtime?model=${MODEL}`, { headers: bearer(customer) });
    expect(plain.status).toBe(426);
    await settledBooks(customer);
    await settledBooks(limited);
  });

  it('refuses a model served only by channels that do not speak the Realtime API, and passes on a provider refusal', async () => {
    await createChannel(root, {
      name: 'claude',
      type: 14,
      key: 'sk-ant',
      base_url: fake.url,
      models: 'claude-rt',
    });
    await createChannel(root, {
      name: 'bad key',
      type: 1,
      key: 'sk-wrong',
      base_url: fake.url,
      models: 'gpt-realtime-mini',
    });
    const customer = await createCustomer(t, 'rt_nochan');
    const other = await RealtimeTestClient.open(sessionUrl('claude-rt'), { headers: bearer(customer) });
    expect(other).toMatchObject({ status: 400, body: { error: { code: 'unsupported_mode' } } });
    const sessionsBefore = fake.sessions.length;
    const refused = await RealtimeTestClient.open(sessionUrl('gpt-realtime-mini'), {
      headers: bearer(customer),
    });
    expect(refused).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
    expect(fake.sessions).toHaveLength(sessionsBefore);
    await settledBooks(customer);
  });

  it("takes a browser's key from the openai-insecure-api-key subprotocol and never echoes it", async () => {
    const customer = await createCustomer(t, 'rt_browser');
    fake.responses = [respond({ inputText: 10, inputAudio: 0, outputText: 10, outputAudio: 0 })];
    const client = await RealtimeTestClient.accepted(sessionUrl(), {
      protocols: ['realtime', `openai-insecure-api-key.sk-${customer.token.key}`, 'openai-beta.realtime-v1'],
    });
    expect(client.socket.protocol).toBe('realtime');
    client.send({ type: 'response.create' });
    await client.nth('response.done');
    // The beta subprotocol asks the provider for the beta interface, and its event names come back.
    expect(fake.sessions.at(-1)!.headers['openai-beta']).toBe('realtime=v1');
    expect(client.types()).toContain('response.text.delta');
    client.socket.close();
    await settledBooks(customer);
    expect(await consumeLogs(t, customer.userId)).toHaveLength(1);
  });

  it("counts an open session toward the key's concurrency limit", async () => {
    const customer = await createCustomer(t, 'rt_conc', { token: { concurrency_limit: 1 } });
    const first = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await first.nth('session.created');
    const second = await RealtimeTestClient.open(sessionUrl(), { headers: bearer(customer) });
    expect(second).toMatchObject({ status: 429, body: { error: { code: 'concurrency_limit_exceeded' } } });
    first.socket.close();
    await waitUntil(() => t.app.services.realtime.openSessions === 0, { what: 'the first session ended' });
    const third = await RealtimeTestClient.accepted(sessionUrl(), { headers: bearer(customer) });
    await third.nth('session.created');
    third.socket.close();
    await settledBooks(customer);
  });

  it('relays an Azure channel to its deployment with its api-key', async () => {
    const customer = await createCustomer(t, 'rt_azure');
    const tokens: RealtimeTokens = { inputText: 30, inputAudio: 300, outputText: 20, outputAudio: 500 };
    fake.responses = [respond(tokens)];
    const client = await RealtimeTestClient.accepted(sessionUrl(AZURE_MODEL), { headers: bearer(customer) });
    client.send({ type: 'response.create' });
    await client.nth('response.done');
    const upstream = fake.sessions.at(-1)!;
    expect(upstream.path).toBe('/openai/realtime');
    expect(upstream.query.get('api-version')).toBe('2024-10-01-preview');
    expect(upstream.query.get('deployment')).toBe(AZURE_MODEL);
    expect(upstream.headers['api-key']).toBe(UPSTREAM_KEY);
    expect(upstream.headers.authorization).toBeUndefined();
    client.socket.close();
    await settledBooks(customer);
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([handPrice(AZURE_MODEL, tokens)]);
  });

  it("works with the openai package's OpenAIRealtimeWS (behind a TLS terminator: it speaks wss only)", async () => {
    const customer = await createCustomer(t, 'rt_sdk');
    const tokens: RealtimeTokens = { inputText: 15, inputAudio: 0, outputText: 25, outputAudio: 0 };
    fake.responses = [respond(tokens)];
    const front = await tlsFront(new URL(t.baseUrl));
    try {
      const sdk = new OpenAI({
        apiKey: `sk-${customer.token.key}`,
        baseURL: `${front.url}/v1`,
        maxRetries: 0,
      });
      const rt = new OpenAIRealtimeWS({ model: MODEL, options: { ca: front.cert } }, sdk);
      const received: string[] = [];
      const failures: unknown[] = [];
      rt.on('error', (error) => failures.push(error));
      rt.on('event', (event) => received.push(event.type));
      const done = new Promise<{ response: { status?: string } }>((resolve) =>
        rt.on('response.done', (event) => resolve(event)),
      );
      await new Promise<void>((resolve) => rt.socket.once('open', () => resolve()));
      rt.send({ type: 'response.create' });
      const finished = await done;
      expect(finished.response).toMatchObject({ status: 'completed' });
      expect(received).toContain('response.output_text.delta');
      expect(failures).toEqual([]);
      rt.close();
      await settledBooks(customer);
    } finally {
      await front.close();
    }
    const logs = await consumeLogs(t, customer.userId);
    expect(logs.map((log) => Number(log.quota))).toEqual([handPrice(MODEL, tokens)]);
  });

  it('refuses ephemeral keys while REALTIME_EPHEMERAL_KEYS is off', async () => {
    const customer = await createCustomer(t, 'rt_ek_off');
    for (const path of ['/v1/realtime/sessions', '/v1/realtime/client_secrets']) {
      const answer = await fetch(`${t.baseUrl}${path}`, {
        method: 'POST',
        headers: { ...bearer(customer), 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, session: { type: 'realtime', model: MODEL } }),
      });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toMatchObject({ error: { code: 'realtime_ephemeral_keys_disabled' } });
    }
    expect(fake.mints).toHaveLength(0);
    const books0 = await books(t, customer.userId, customer.token.id);
    expect(books0.logs).toBe(0);
  });
});

describe('the Realtime API with ephemeral keys allowed and tight limits', () => {
  let t: TestApp;
  let fake: RealtimeFake;

  beforeAll(async () => {
    fake = await new RealtimeFake(UPSTREAM_KEY).start();
    t = await startTestApp({
      env: { REALTIME_EPHEMERAL_KEYS: 'true', REALTIME_MESSAGE_LIMIT: '1', REALTIME_IDLE_TIMEOUT: '1' },
    });
    const root = await t.root();
    await createChannel(root, {
      name: 'openai',
      type: 1,
      key: UPSTREAM_KEY,
      base_url: fake.url,
      models: MODEL,
    });
  });

  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const bearer = (customer: Customer) => ({ authorization: `Bearer sk-${customer.token.key}` });
  const mint = (customer: Customer, path: string, body: unknown) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...bearer(customer), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("relays a mint with the channel's key only for a model the key may use, unbilled", async () => {
    const customer = await createCustomer(t, 'rt_mint');
    const minted = await mint(customer, '/v1/realtime/client_secrets', {
      session: { type: 'realtime', model: MODEL },
    });
    expect(minted.status).toBe(200);
    expect(await minted.json()).toMatchObject({ value: 'ek_fake_ephemeral' });
    const session = await mint(customer, '/v1/realtime/sessions', { model: MODEL });
    expect(await session.json()).toMatchObject({ client_secret: { value: 'ek_fake_ephemeral' } });
    expect(fake.mints.map((one) => [one.path, one.headers.authorization])).toEqual([
      ['/v1/realtime/client_secrets', `Bearer ${UPSTREAM_KEY}`],
      ['/v1/realtime/sessions', `Bearer ${UPSTREAM_KEY}`],
    ]);
    const limited = await createCustomer(t, 'rt_mint_lim', { token: { models: 'gpt-4o-mini' } });
    const refused = await mint(limited, '/v1/realtime/sessions', { model: MODEL });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'model_not_allowed' } });
    expect(fake.mints).toHaveLength(2);
    expect((await books(t, customer.userId, customer.token.id)).logs).toBe(0);
  });

  it('closes a session whose client sends a message over REALTIME_MESSAGE_LIMIT, the hold given back', async () => {
    const customer = await createCustomer(t, 'rt_large');
    const client = await RealtimeTestClient.accepted(
      `${t.baseUrl.replace(/^http/, 'ws')}/v1/realtime?model=${MODEL}`,
      {
        headers: bearer(customer),
      },
    );
    await client.nth('session.created');
    client.send({ type: 'input_audio_buffer.append', audio: 'A'.repeat(1024 * 1024 + 1) });
    expect((await client.closed).code).toBe(1009);
    await waitUntil(() => t.app.services.realtime.openSessions === 0, { what: 'the session ended' });
    await fake.allClosed();
    await t.app.services.billing.settled();
    await expectBalancedBooks(t, {
      userId: customer.userId,
      tokenId: customer.token.id,
      userFunds: USER_FUNDS,
    });
  });

  it('closes a session idle for REALTIME_IDLE_TIMEOUT with an error event', async () => {
    const customer = await createCustomer(t, 'rt_idle');
    const client = await RealtimeTestClient.accepted(
      `${t.baseUrl.replace(/^http/, 'ws')}/v1/realtime?model=${MODEL}`,
      {
        headers: bearer(customer),
      },
    );
    // Time is the behaviour here: the session is left silent until the gateway ends it.
    const error = await client.nth('error');
    expect(error.error).toMatchObject({ code: 'session_idle' });
    expect((await client.closed).code).toBe(1000);
    await fake.allClosed();
  });
});

/** The most a TCP socket's receive or send buffer may grow to here (Linux's limit; 32 MB elsewhere). */
function largestSocketBuffer(kind: 'rmem' | 'wmem'): number {
  try {
    const max = Number(fs.readFileSync(`/proc/sys/net/ipv4/tcp_${kind}`, 'utf8').trim().split(/\s+/)[2]);
    if (Number.isFinite(max) && max > 0) return max;
  } catch {
    // not Linux
  }
  return 32 * 1024 * 1024;
}
