import { resolveModelRatio } from '@switchyard/contract/model-ratios';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import {
  balances,
  type Customer,
  consumeLogs,
  createChannel,
  createCustomer,
  openAiFor,
} from './relay-setup';
import { waitUntil } from './wait';

// gpt-3.5-turbo: model ratio 0.25, completion ratio 3; the fake reports 11 prompt + 7 completion tokens.
const EXPECTED_QUOTA = Math.ceil((11 + 7 * 3) * 0.25);

describe('relay: OpenAI-compatible endpoints', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let channelId: number;
  let alice: Customer;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp();
    root = await t.root();
    channelId = await createChannel(root, { base_url: fake.url, key: 'sk-channel-secret' });
    alice = await createCustomer(t, 'alice');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('relays a chat completion and bills it exactly', async () => {
    fake.use(openAiHandler());
    const before = await balances(t, alice.userId, alice.token.id);
    const completion = await alice.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'Say hello' }],
      // @ts-expect-error an unknown field must reach the upstream untouched
      x_vendor_flag: { keep: true },
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from the fake upstream');
    const upstream = fake.last();
    expect(upstream.url).toBe('/v1/chat/completions');
    expect(upstream.headers.authorization).toBe('Bearer sk-channel-secret');
    expect(upstream.json).toMatchObject({ model: 'gpt-3.5-turbo', x_vendor_flag: { keep: true } });

    await t.app.services.relay.settled();
    const after = await balances(t, alice.userId, alice.token.id);
    expect(before.quota - after.quota).toBe(EXPECTED_QUOTA);
    expect(after.usedQuota - before.usedQuota).toBe(EXPECTED_QUOTA);
    expect(after.requestCount - before.requestCount).toBe(1);
    expect(before.remain - after.remain).toBe(EXPECTED_QUOTA);
    expect(after.tokenUsed - before.tokenUsed).toBe(EXPECTED_QUOTA);
    const log = (await consumeLogs(t, alice.userId)).at(-1)!;
    expect(log).toMatchObject({
      quota: EXPECTED_QUOTA,
      prompt_tokens: 11,
      completion_tokens: 7,
      model_name: 'gpt-3.5-turbo',
      token_name: 'alice-key',
      username: 'alice',
      channel_id: channelId,
    });
    expect(log.content).toBe('model ratio 0.25 × group ratio 1.00 × completion ratio 3.00');
    const channel = await t.db.kysely
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow();
    expect(Number(channel.used_quota)).toBeGreaterThanOrEqual(EXPECTED_QUOTA);
  });

  it('streams event by event, asks for usage and bills from the usage chunk', async () => {
    fake.use(openAiHandler({ reply: 'one two three four' }));
    const before = await balances(t, alice.userId, alice.token.id);
    const stream = await alice.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    expect(pieces.join('')).toBe('one two three four');
    expect(fake.last().json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    await t.app.services.relay.settled();
    const after = await balances(t, alice.userId, alice.token.id);
    expect(before.quota - after.quota).toBe(EXPECTED_QUOTA);
    expect((await consumeLogs(t, alice.userId)).at(-1)).toMatchObject({
      is_stream: expect.anything(),
      prompt_tokens: 11,
    });
  });

  it('counts tokens itself when the upstream reports no usage, streaming or not', async () => {
    const reply = 'Counting the tokens of this sentence myself';
    fake.use(openAiHandler({ reply, usage: null }));
    const messages = [{ role: 'user' as const, content: 'Please count' }];
    const prompt = 3 + 3 + countCl100k('Please count') + countCl100k('user');
    const completion = countCl100k(reply);
    const expected = Math.ceil((prompt + completion * 3) * 0.25);

    const before = await balances(t, alice.userId, alice.token.id);
    await alice.openai.chat.completions.create({ model: 'gpt-3.5-turbo', messages });
    await t.app.services.relay.settled();
    const middle = await balances(t, alice.userId, alice.token.id);
    expect(before.quota - middle.quota).toBe(expected);
    expect((await consumeLogs(t, alice.userId)).at(-1)).toMatchObject({
      prompt_tokens: prompt,
      completion_tokens: completion,
    });

    const stream = await alice.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages,
      stream: true,
    });
    for await (const _chunk of stream) {
      // drain
    }
    await t.app.services.relay.settled();
    const after = await balances(t, alice.userId, alice.token.id);
    expect(middle.quota - after.quota).toBe(expected);
  });

  it('refunds the reservation when the upstream fails', async () => {
    fake.use(openAiError(500, 'The server had an error', 'server_error'));
    const before = await balances(t, alice.userId, alice.token.id);
    const logsBefore = (await consumeLogs(t, alice.userId)).length;
    await expect(
      alice.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 500 });
    await t.app.services.relay.settled();
    expect(await balances(t, alice.userId, alice.token.id)).toEqual(before);
    expect(await consumeLogs(t, alice.userId)).toHaveLength(logsBefore);
  });

  it('refunds when the upstream cannot be reached at all', async () => {
    const dead = await new HttpFake(openAiHandler()).start();
    const deadUrl = dead.url;
    await dead.close();
    const bob = await createCustomer(t, 'bob-net');
    await root.put('/api/channel/', { id: channelId, base_url: deadUrl });
    const before = await balances(t, bob.userId, bob.token.id);
    await expect(
      bob.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 502 });
    await root.put('/api/channel/', { id: channelId, base_url: fake.url });
    await t.app.services.relay.settled();
    expect(await balances(t, bob.userId, bob.token.id)).toEqual(before);
  });

  it('refunds when the upstream answer breaks off half-way through its body', async () => {
    fake.use((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"id":"chatcmpl-cut","choices":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const carol = await createCustomer(t, 'carol-cut');
    const before = await balances(t, carol.userId, carol.token.id);
    const error = await carol.openai.chat.completions
      .create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    fake.use(openAiHandler());
    expect(error).toMatchObject({ status: 502, code: 'upstream_broken' });
    await t.app.services.relay.settled();
    expect(await balances(t, carol.userId, carol.token.id)).toEqual(before);
    expect(await consumeLogs(t, carol.userId)).toHaveLength(0);
  });

  it('cancels the upstream when the client disconnects and bills what was delivered', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    let upstreamClosed = false;
    fake.use(async (request, res) => {
      res.on('close', () => {
        upstreamClosed = true;
      });
      await openAiHandler({ reply: words, chunkDelayMs: 50, usage: null })(request, res);
    });
    const carol = await createCustomer(t, 'carol');
    const before = await balances(t, carol.userId, carol.token.id);
    const controller = new AbortController();
    const response = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${carol.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      }),
      signal: controller.signal,
    });
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
    const log = (await consumeLogs(t, carol.userId)).at(-1)!;
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(countCl100k(words));
    const after = await balances(t, carol.userId, carol.token.id);
    expect(before.quota - after.quota).toBe(log.quota);
    fake.use(openAiHandler());
  });

  it('relays completions, embeddings, moderations, images and speech', async () => {
    fake.use(openAiHandler());
    const completion = await alice.openai.completions.create({ model: 'gpt-3.5-turbo', prompt: 'Once' });
    expect(completion.choices[0]?.text).toBe('Hello from the fake upstream');
    const embedding = await alice.openai.embeddings.create({
      model: 'text-embedding-ada-002',
      input: ['a', 'b'],
    });
    expect(embedding.data).toHaveLength(2);
    expect(fake.last().url).toBe('/v1/embeddings');
    const moderation = await alice.openai.moderations.create({ input: 'hello' });
    expect(moderation.results[0]?.flagged).toBe(false);
    expect(fake.last().json).toMatchObject({ input: 'hello' });
    const image = await alice.openai.images.generate({ model: 'dall-e-2', prompt: 'a cat' });
    expect(image.data?.[0]?.url).toBe('https://example.com/image.png');
    const speech = await alice.openai.audio.speech.create({ model: 'tts-1', input: 'hello', voice: 'alloy' });
    expect(Buffer.from(await speech.arrayBuffer()).toString()).toBe('ID3fake-mp3-bytes');
  });

  it('bills images per picture and size, speech per input byte, transcripts by their tokens', async () => {
    fake.use(openAiHandler({ reply: 'the transcribed words' }));
    const frank = await createCustomer(t, 'frank');
    const spent = async (work: () => Promise<unknown>) => {
      const before = await balances(t, frank.userId, frank.token.id);
      await work();
      await t.app.services.relay.settled();
      return before.quota - (await balances(t, frank.userId, frank.token.id)).quota;
    };
    const imageRatio = resolveModelRatio('dall-e-2');
    expect(
      await spent(() =>
        frank.openai.images.generate({ model: 'dall-e-2', prompt: 'a cat', size: '512x512', n: 2 }),
      ),
    ).toBe(Math.floor(imageRatio * 1.125 * 1000) * 2);
    await expect(
      frank.openai.images.generate({ model: 'dall-e-2', prompt: 'a cat', size: '999x999' }),
    ).rejects.toMatchObject({ status: 400 });
    expect(
      await spent(() => frank.openai.audio.speech.create({ model: 'tts-1', input: 'hello', voice: 'alloy' })),
    ).toBe(Math.floor(5 * resolveModelRatio('tts-1')));
    const file = await toFile(Buffer.from('RIFF-fake-wave'), 'clip.wav');
    const transcript = await spent(async () => {
      const answer = await frank.openai.audio.transcriptions.create({ model: 'whisper-1', file });
      expect(answer.text).toBe('the transcribed words');
    });
    expect(transcript).toBe(Math.ceil(countCl100k('the transcribed words') * resolveModelRatio('whisper-1')));
    expect(fake.last().headers['content-type']).toMatch(/^multipart\/form-data/);
    fake.use(openAiHandler());
  });

  it('lists and retrieves only the models the key can reach', async () => {
    const models = await alice.openai.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids).toContain('gpt-3.5-turbo');
    expect(ids).toContain('gpt-4');
    expect(ids).not.toContain('claude-2.1');
    expect((await alice.openai.models.retrieve('gpt-4')).id).toBe('gpt-4');
    await expect(alice.openai.models.retrieve('claude-2.1')).rejects.toMatchObject({ status: 404 });
    const scoped = await createCustomer(t, 'scoped', { token: { models: 'gpt-4' } });
    expect((await scoped.openai.models.list()).data.map((model) => model.id)).toEqual(['gpt-4']);
  });

  describe('refusals, in OpenAI error shape', () => {
    it('a wrong key', async () => {
      const error = await openAiFor(t, 'sk-doesnotexist')
        .chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as InstanceType<typeof OpenAI.AuthenticationError>).message).toMatch(/Invalid API key/);
    });

    it('an expired key and an exhausted key', async () => {
      const dave = await createCustomer(t, 'dave');
      await t.db.kysely
        .updateTable('tokens')
        .set({ expired_time: 1000 })
        .where('id', '=', dave.token.id)
        .execute();
      t.app.services.identities.tokenChanged(dave.token.key);
      await expect(
        dave.openai.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toThrow(/expired/);
      await t.db.kysely
        .updateTable('tokens')
        .set({ expired_time: -1, remain_quota: 0 })
        .where('id', '=', dave.token.id)
        .execute();
      t.app.services.identities.tokenChanged(dave.token.key);
      await expect(
        dave.openai.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toThrow(/used up its quota/);
    });

    it('a model the key may not use, and a model nobody serves', async () => {
      const scoped = await createCustomer(t, 'scoped2', { token: { models: 'gpt-4' } });
      const error = await scoped.openai.chat.completions
        .create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      const missing = await alice.openai.chat.completions
        .create({ model: 'gpt-unknown', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
      expect(missing).toMatchObject({ status: 404, code: 'model_not_found' });
      expect(String((missing as Error).message)).toMatch(/The model 'gpt-unknown' does not exist/);
    });

    it('a key used from outside its subnet', async () => {
      const fenced = await createCustomer(t, 'fenced', { token: { subnet: '10.1.0.0/16' } });
      const error = await fenced.openai.chat.completions
        .create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error).toMatchObject({ code: 'ip_not_allowed' });
      expect(String((error as Error).message)).toMatch(/can only be used from 10\.1\.0\.0\/16/);
      const open = await createCustomer(t, 'localnet', { token: { subnet: '127.0.0.0/8' } });
      fake.use(openAiHandler());
      await expect(
        open.openai.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] }),
      ).resolves.toBeTruthy();
    });

    it('a user without enough quota, refused before the upstream is called', async () => {
      const poor = await createCustomer(t, 'poor', { quota: 0 });
      const calls = fake.requests.length;
      const error = await poor.openai.chat.completions
        .create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 403, code: 'insufficient_user_quota' });
      expect(fake.requests.length).toBe(calls);
    });

    it('a user with nothing left, even for a call estimated at zero quota', async () => {
      await root.put('/api/option/', { key: 'PreConsumedQuota', value: '0' });
      try {
        const broke = await createCustomer(t, 'broke', { quota: 0, token: { unlimited_quota: true } });
        const calls = fake.requests.length;
        const error = await broke.openai.chat.completions
          .create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'x' }] })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ status: 403, code: 'insufficient_user_quota' });
        expect(fake.requests.length).toBe(calls);
        expect((await balances(t, broke.userId, broke.token.id)).quota).toBe(0);
      } finally {
        await root.put('/api/option/', { key: 'PreConsumedQuota', value: '500' });
      }
    });

    it('a banned user', async () => {
      const eve = await createCustomer(t, 'eve');
      await root.post('/api/user/manage', { username: 'eve', action: 'disable' });
      await expect(
        eve.openai.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toThrow(/banned/);
    });

    it('malformed requests', async () => {
      const bad = await fetch(`${t.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${alice.token.key}`, 'content-type': 'application/json' },
        body: '{"model": "gpt-4", ',
      });
      expect(bad.status).toBe(400);
      const refusal = await bad.text();
      // Its length declared, as every answer's, not sent chunked.
      expect(bad.headers.get('content-length')).toBe(String(Buffer.byteLength(refusal)));
      expect(JSON.parse(refusal)).toMatchObject({ error: { type: 'invalid_request_error' } });
      const noMessages = await alice.openai.chat.completions
        .create({ model: 'gpt-4', messages: [] })
        .catch((e: unknown) => e);
      expect(noMessages).toMatchObject({ status: 400 });
    });

    it('unknown and unserved OpenAI paths', async () => {
      const unknown = await fetch(`${t.baseUrl}/v1/nothing`, {
        headers: { authorization: `Bearer sk-${alice.token.key}` },
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { message: 'Invalid URL (GET /v1/nothing)' } });
      const files = await fetch(`${t.baseUrl}/v1/files`, {
        headers: { authorization: `Bearer sk-${alice.token.key}` },
      });
      expect(files.status).toBe(501);
      expect(await files.json()).toMatchObject({ error: { code: 'api_not_implemented' } });
    });
  });
});
