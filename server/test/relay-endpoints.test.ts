import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolveModelRatio } from '@switchyard/contract/model-ratios';
import Fastify, { type FastifyInstance } from 'fastify';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayRoutes } from '../src/relay/front/routes';
import { ChannelHealth } from '../src/relay/pipeline/channel-health';
import { Relay } from '../src/relay/pipeline/relay';
import { createTokenCounter } from '../src/relay/pipeline/tokenizer';
import { UpstreamClient } from '../src/relay/upstream';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const USAGE = { prompt_tokens: 11, completion_tokens: 7 };
const REPLY = 'words from the fake';

/**
 * Spins until the kernel holds bytes not yet read by this process's loopback socket on `port`
 * (Linux's /proc/net/tcp; elsewhere it returns at once). A write on loopback usually lands in the
 * reader's queue before it returns, but a loaded machine may deliver it a moment later.
 */
function waitUntilUnread(port: number): void {
  if (!existsSync('/proc/net/tcp')) return;
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const unread = () => {
    for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n')) {
      const fields = line.trim().split(/\s+/);
      if (fields[1] === local) return Number.parseInt(fields[4]?.split(':')[1] ?? '0', 16);
    }
    throw new Error(`no socket on ${local} in /proc/net/tcp`);
  };
  const giveUpAt = performance.now() + 5_000;
  while (unread() === 0) {
    if (performance.now() > giveUpAt) throw new Error('the write never reached the reading socket');
  }
}

describe('relay: less travelled endpoints and behaviours', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let customer: Customer;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: REPLY, usage: USAGE })).start();
    t = await startTestApp();
    root = await t.root();
    customer = await createCustomer(t, 'traveller', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const onlyChannel = async (type: number, models: string) => {
    fake.use(openAiHandler({ reply: REPLY, usage: USAGE }));
    await t.db.kysely.deleteFrom('abilities').execute();
    await t.db.kysely.deleteFrom('channels').execute();
    t.app.services.router.invalidate();
    return createChannel(root, { type, base_url: fake.url, key: `key-${type}`, models });
  };

  it('/v1/audio/translations: relays the upload as multipart and bills the transcript by its tokens', async () => {
    const channelId = await onlyChannel(1, 'whisper-1');
    const file = await toFile(Buffer.from('RIFF-fake-wave-in-french'), 'clip.wav');
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      const answer = await customer.openai.audio.translations.create({ model: 'whisper-1', file });
      expect(answer.text).toBe(REPLY);
    });
    const upstream = fake.last();
    expect(upstream).toMatchObject({
      method: 'POST',
      url: '/v1/audio/translations',
      headers: { authorization: 'Bearer key-1' },
    });
    expect(upstream.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upstream.body).toContain('RIFF-fake-wave-in-french');
    expect(upstream.body).toMatch(/name="model"\r\n\r\nwhisper-1/);
    const expected = Math.ceil(countTokens(REPLY) * resolveModelRatio('whisper-1'));
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({ channel_id: channelId, model_name: 'whisper-1', quota: expected });
  });

  describe('multipart forms are read by a real parser', () => {
    const boundary = 'form-edge';
    const post = (body: string, contentType = `multipart/form-data; boundary="${boundary}"`) =>
      fetch(`${t.baseUrl}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': contentType },
        body,
      });
    const filePart =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.wav"\r\n` +
      'Content-Type: audio/wav\r\n\r\nRIFF-bytes\r\n';

    it('a model field named without quotes, after the file, routes and bills that model', async () => {
      const channelId = await onlyChannel(1, 'whisper-large-v3');
      const form =
        `${filePart}--${boundary}\r\ncontent-disposition: form-data; name=model\r\n\r\nwhisper-large-v3\r\n` +
        `--${boundary}--\r\n`;
      const { log } = await spentBy(t, customer, async () => {
        const answer = await post(form);
        expect(answer.status, await answer.clone().text()).toBe(200);
      });
      expect(log).toMatchObject({ channel_id: channelId, model_name: 'whisper-large-v3' });
      expect(fake.last().body).toBe(form);
    });

    it.each([
      [
        'cut off before its closing boundary',
        `${filePart}--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1`,
        undefined,
      ],
      ['without a boundary in its content type', `${filePart}--${boundary}--\r\n`, 'multipart/form-data'],
    ])('a form %s: 400 invalid_multipart, nothing sent upstream, nothing charged', async (_, body, type) => {
      await onlyChannel(1, 'whisper-1');
      const seen = fake.requests.length;
      const { quota } = await spentBy(t, customer, async () => {
        const answer = await post(body, type);
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({
          error: { code: 'invalid_multipart', type: 'invalid_request_error' },
        });
      });
      expect(quota).toBe(0);
      expect(fake.requests.length).toBe(seen);
    });
  });

  it('/v1/engines/:model/embeddings: the path names the model, which routes and bills the call', async () => {
    const channelId = await onlyChannel(1, 'text-embedding-3-small');
    const { quota, log } = await spentBy(t, customer, async () => {
      const response = await fetch(`${t.baseUrl}/v1/engines/text-embedding-3-small/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: ['one', 'two'] }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: unknown[] };
      expect(body.data).toHaveLength(2);
    });
    // The body goes upstream as the client sent it, to the same path.
    expect(fake.last()).toMatchObject({
      url: '/v1/engines/text-embedding-3-small/embeddings',
      headers: { authorization: 'Bearer key-1' },
      json: { input: ['one', 'two'] },
    });
    expect(quota).toBe(expectedQuota('text-embedding-3-small', 1, { prompt: 11, completion: 0 }));
    expect(log).toMatchObject({
      channel_id: channelId,
      model_name: 'text-embedding-3-small',
      prompt_tokens: 11,
    });

    // A model the path names that no channel serves is refused like any other.
    const missing = await fetch(`${t.baseUrl}/v1/engines/no-such-embedder/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'x' }),
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('a key its owner disabled (status 2) is refused at the relay, and works again once enabled', async () => {
    await onlyChannel(1, 'gpt-3.5-turbo');
    const owner = await createCustomer(t, 'switcher');
    const ask = () =>
      owner.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'x' }],
      });
    await ask();
    const setStatus = (status: number) =>
      owner.client.put<EnvelopeBody<{ status: number }>>('/api/token/?status_only=true', {
        id: owner.token.id,
        status,
      });
    expect((await setStatus(2)).body.data?.status).toBe(2);
    const calls = fake.requests.length;
    const { error, refunded, logged } = await expectRefunded(t, owner, ask);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).error).toMatchObject({
      message: expect.stringMatching(/^This API key is disabled/),
      type: 'one_api_error',
      code: 'invalid_api_key',
    });
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
    expect(fake.requests.length).toBe(calls);
    expect((await setStatus(1)).body.data?.status).toBe(1);
    await expect(ask()).resolves.toMatchObject({ choices: [{ message: { content: REPLY } }] });
  });

  describe('stream_options.include_usage on streamed /v1/completions', () => {
    const readCompletion = async (model: string) => {
      const stream = await customer.openai.completions.create({ model, prompt: 'Once upon', stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
      return text;
    };

    it('is asked for where the channel supports it, and the usage chunk is the bill', async () => {
      const model = 'gpt-3.5-turbo-instruct';
      const channelId = await onlyChannel(1, model);
      let text = '';
      const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
        text = await readCompletion(model);
      });
      expect(text).toBe(REPLY);
      expect(fake.last()).toMatchObject({
        url: '/v1/completions',
        json: { model, prompt: 'Once upon', stream: true, stream_options: { include_usage: true } },
      });
      const expected = expectedQuota(model, 1, { prompt: 11, completion: 7 });
      expect(quota).toBe(expected);
      expect(tokenQuota).toBe(expected);
      expect(log).toMatchObject({
        channel_id: channelId,
        prompt_tokens: 11,
        completion_tokens: 7,
        quota: expected,
      });
    });

    it('is forced on even when the client turned it off (the usage chunk is the bill)', async () => {
      await onlyChannel(1, 'gpt-3.5-turbo-instruct');
      const stream = await customer.openai.completions.create({
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Once upon',
        stream: true,
        stream_options: { include_usage: false },
      });
      for await (const _ of stream);
      expect(fake.last().json).toMatchObject({ stream_options: { include_usage: true } });
    });

    it('is not asked for where the channel refuses it: the gateway counts instead', async () => {
      const model = 'mistral-small-latest';
      await onlyChannel(28, model);
      let text = '';
      const { quota, log } = await spentBy(t, customer, async () => {
        text = await readCompletion(model);
      });
      expect(text).toBe(REPLY);
      expect(fake.last().json).not.toHaveProperty('stream_options');
      const usage = { prompt: countTokens('Once upon'), completion: countTokens(REPLY) };
      expect(quota).toBe(expectedQuota(model, 28, usage));
      expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
    });
  });

  describe('SSE keep-alive during a silent upstream stream', () => {
    const KEEP_ALIVE_MS = 200;
    let server: FastifyInstance;
    let baseUrl: string;
    let relay: Relay;

    // The app's own relay keeps the 15 s default; a second one over the same services uses 200 ms.
    beforeAll(async () => {
      const { services } = t.app;
      relay = new Relay({
        router: services.router,
        billing: services.billing,
        options: services.options,
        health: new ChannelHealth({ options: services.options, channels: services.channels }),
        counter: createTokenCounter(() => false),
        upstream: new UpstreamClient({
          relayTimeoutMs: 30_000,
          relayConnectTimeoutMs: 5_000,
          relayAnswerLimit: 64 * 1024 * 1024,
        }),
        keepAliveMs: KEEP_ALIVE_MS,
      });
      server = Fastify();
      await relayRoutes(server, {
        relay,
        router: services.router,
        identities: services.identities,
        videoJobs: services.videoJobs,
        bodyLimit: t.config.relayBodyLimit,
        realtime: services.realtime,
        realtimeMessageLimit: t.config.realtimeMessageLimit,
      });
      await server.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await server.close();
    });

    /** Reads the raw stream, noting when each piece arrived. */
    const rawStream = async (
      path: string,
      body: unknown,
      headers: Record<string, string>,
      onText?: (received: string) => void,
    ) => {
      const started = Date.now();
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      const pieces: Array<{ at: number; text: string }> = [];
      const decoder = new TextDecoder();
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        pieces.push({ at: Date.now() - started, text: decoder.decode(chunk, { stream: true }) });
        onText?.(pieces.map((piece) => piece.text).join(''));
      }
      return { pieces, text: pieces.map((piece) => piece.text).join('') };
    };

    it('sends `: keep-alive` comments while the upstream is silent, then the answer, billed as usual', async () => {
      await onlyChannel(1, 'gpt-3.5-turbo');
      fake.use(openAiHandler({ reply: REPLY, usage: USAGE, silenceMs: 3 * KEEP_ALIVE_MS + 100 }));
      let text = '';
      const { quota } = await spentBy(t, customer, async () => {
        ({ text } = await rawStream(
          '/v1/chat/completions',
          { model: 'gpt-3.5-turbo', stream: true, messages: [{ role: 'user', content: 'take your time' }] },
          { authorization: `Bearer sk-${customer.token.key}` },
        ));
        // This relay settles on its own, not through the app's.
        await relay.settled();
      });
      const firstData = text.indexOf('data: ');
      const comments = text.slice(0, firstData).split('\n\n').filter(Boolean);
      expect(comments.length).toBeGreaterThanOrEqual(2);
      expect(new Set(comments)).toEqual(new Set([': keep-alive']));
      const events = text
        .slice(firstData)
        .split('\n\n')
        .filter(Boolean)
        .map((frame) => frame.replace(/^data: /, ''));
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((data) => JSON.parse(data) as OpenAI.ChatCompletionChunk);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe(REPLY);
      expect(quota).toBe(expectedQuota('gpt-3.5-turbo', 1, { prompt: 11, completion: 7 }));
    });

    it('sends none while events flow, and the SDK reads through comments', async () => {
      await onlyChannel(1, 'gpt-3.5-turbo');
      fake.use(openAiHandler({ reply: 'one two three four five six', usage: USAGE, chunkDelayMs: 50 }));
      const { text } = await rawStream(
        '/v1/chat/completions',
        { model: 'gpt-3.5-turbo', stream: true, messages: [{ role: 'user', content: 'go' }] },
        { authorization: `Bearer sk-${customer.token.key}` },
      );
      expect(text).not.toContain('keep-alive');

      fake.use(openAiHandler({ reply: REPLY, usage: USAGE, silenceMs: KEEP_ALIVE_MS + 100 }));
      const sdk = new OpenAI({ apiKey: `sk-${customer.token.key}`, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
      const stream = await sdk.chat.completions.create({
        model: 'gpt-3.5-turbo',
        stream: true,
        messages: [{ role: 'user', content: 'wait' }],
      });
      let content = '';
      for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
      expect(content).toBe(REPLY);
    });

    it('sends none after a busy spell when the next event arrived during it', async () => {
      await onlyChannel(1, 'gpt-3.5-turbo');
      const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model: 'gpt-3.5-turbo', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let forwarded!: () => void;
      const firstForwarded = new Promise<void>((resolve) => {
        forwarded = resolve;
      });
      fake.use(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(frame({ content: 'one' }));
        // The second event leaves as soon as the client has the first, so the relay heard an event
        // just before. Then the whole process (this test's relay with it) is busy for longer than
        // the keep-alive interval, from the moment the event waits in the relay's socket: it is
        // there, unread, when the interval's timer runs next.
        await firstForwarded;
        response.write(frame({ content: ' two' }));
        const relayPort = response.socket?.remotePort ?? 0;
        // node:http sends a write on the next tick (it corks the socket till then).
        process.nextTick(() => {
          waitUntilUnread(relayPort);
          const busyUntil = performance.now() + 3 * KEEP_ALIVE_MS;
          while (performance.now() < busyUntil);
        });
        await new Promise((resolve) => setTimeout(resolve, 20));
        response.write(frame({ content: ' three' }));
        response.write(frame({}, 'stop'));
        response.end('data: [DONE]\n\n');
      });
      const { text } = await rawStream(
        '/v1/chat/completions',
        { model: 'gpt-3.5-turbo', stream: true, messages: [{ role: 'user', content: 'go' }] },
        { authorization: `Bearer sk-${customer.token.key}` },
        (received) => {
          if (received.includes('"one"')) forwarded();
        },
      );
      expect(text).toContain('three');
      expect(text).not.toContain('keep-alive');
    });

    it('reaches /v1/messages clients too, as SSE comments between Anthropic events', async () => {
      await onlyChannel(1, 'gpt-3.5-turbo');
      // Silent for five intervals: the first comment is due after one, and a busy CI may run it late.
      fake.use(openAiHandler({ reply: REPLY, usage: USAGE, silenceMs: 5 * KEEP_ALIVE_MS + 100 }));
      const { text } = await rawStream(
        '/v1/messages',
        {
          model: 'gpt-3.5-turbo',
          max_tokens: 20,
          stream: true,
          messages: [{ role: 'user', content: 'wait' }],
        },
        { 'x-api-key': `sk-${customer.token.key}` },
      );
      expect(text.startsWith(': keep-alive\n\n')).toBe(true);
      expect(text).toContain('event: message_start');
      expect(text.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
    });
  });
});
