import type http from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHandler, HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { balances, type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';

/** RELAY_TIMEOUT of this run: also how long a stream may stay silent once it has begun. */
// Every call here must begin within it on a busy CI (at 2 s one did not), and the silent stream waits it out.
const RELAY_TIMEOUT_MS = 4_000;
/** Native providers (type, model, key) whose answers are converted: each must refuse an answer of another shape. */
const NATIVE = [
  { name: 'Anthropic', type: 14, model: 'claude-3-5-sonnet-20241022', key: 'sk-ant-api03-fake' },
  { name: 'Ali DashScope', type: 17, model: 'qwen-plus', key: 'sk-dashscope-fake-key' },
  {
    name: 'Tencent Hunyuan',
    type: 23,
    model: 'hunyuan-standard',
    key: '1250000000|AKIDfakeSecretId|fake-secret-key',
    config: JSON.stringify({ region: 'ap-guangzhou' }),
  },
  { name: 'Zhipu (v4)', type: 16, model: 'glm-4', key: 'a1b2c3d4e5f6a7b8.Fak3SecretForZhipu' },
  { name: 'Ollama', type: 30, model: 'llama3:latest', key: 'ollama-key' },
];
const GEMINI_MODEL = 'gemini-1.5-pro';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 200 whose body is whatever is given, under the given content type. */
const answerWith =
  (body: string, contentType = 'application/json'): FakeHandler =>
  (_request, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  };

const chunk = (content: string) =>
  JSON.stringify({
    id: 'chatcmpl-broken',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-3.5-turbo',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });

/** An OpenAI stream of `words`, one chunk each, that then breaks: cut, silent, closed cleanly without its end, or garbage. */
const streamThatBreaks =
  (words: string[], end: 'cut' | 'silence' | 'close' | { garbage: string }): FakeHandler =>
  async (_request, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [index, word] of words.entries()) {
      res.write(`data: ${chunk(index === 0 ? word : ` ${word}`)}\n\n`);
      await sleep(20);
    }
    await sleep(100);
    if (end === 'cut') res.socket?.destroy();
    else if (end === 'close') res.end();
    else if (end !== 'silence') res.write(`data: ${end.garbage}\n\n`);
    // 'silence', and after garbage: the connection stays open and says nothing more.
  };

interface RawStream {
  status: number;
  text: string;
  /** The `data:` payloads, in order. */
  data: string[];
  ms: number;
}

describe('broken upstream answers are refused, not relayed as successes', () => {
  let t: TestApp;
  let broken: HttpFake;
  let healthy: HttpFake;
  let native: HttpFake;
  let customer: Customer;
  let brokenChannel: number;
  let healthyChannel: number;

  beforeAll(async () => {
    t = await startTestApp({ env: { RELAY_TIMEOUT: String(RELAY_TIMEOUT_MS / 1000) } });
    broken = await new HttpFake(openAiHandler()).start();
    healthy = await new HttpFake(openAiHandler({ reply: 'A whole answer' })).start();
    native = await new HttpFake(openAiHandler()).start();
    const root = await t.root();
    await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    // gpt-3.5-turbo: the broken channel first, a healthy one after it. The other models: the broken one only.
    brokenChannel = await createChannel(root, {
      name: 'broken',
      base_url: broken.url,
      models: 'gpt-3.5-turbo,gpt-4,text-embedding-ada-002,tts-1',
      priority: 10,
    });
    healthyChannel = await createChannel(root, {
      name: 'healthy',
      base_url: healthy.url,
      models: 'gpt-3.5-turbo',
      priority: 0,
    });
    for (const { name, type, model, key, config } of NATIVE) {
      await createChannel(root, { name, type, key, config, base_url: native.url, models: model });
    }
    await createChannel(root, {
      name: 'Gemini',
      type: 24,
      key: 'gemini-fake-key',
      base_url: native.url,
      models: GEMINI_MODEL,
    });
    customer = await createCustomer(t, 'brokenans', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([broken?.close(), healthy?.close(), native?.close()]);
  });

  /** Runs `work` and answers what it threw, checking that no account was charged or logged. */
  async function refusedAndFree(work: () => Promise<unknown>): Promise<unknown> {
    await t.app.services.relay.settled();
    const before = await balances(t, customer.userId, customer.token.id);
    const logs = (await consumeLogs(t, customer.userId)).length;
    const error = await work().then(
      () => new Error('the call succeeded'),
      (failure: unknown) => failure,
    );
    await t.app.services.relay.settled();
    expect(await balances(t, customer.userId, customer.token.id)).toEqual(before);
    expect(await consumeLogs(t, customer.userId)).toHaveLength(logs);
    return error;
  }

  const chat = (model: string) =>
    customer.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

  async function rawCall(path: string, body: Record<string, unknown>): Promise<RawStream> {
    const started = performance.now();
    const response = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const data = text
      .split('\n\n')
      .flatMap((frame) => frame.split('\n').filter((line) => line.startsWith('data: ')))
      .map((line) => line.slice(6));
    return { status: response.status, text, data, ms: performance.now() - started };
  }

  const PROMPT = 'Tell me everything';
  const streamChat = (model = 'gpt-3.5-turbo') =>
    rawCall('/v1/chat/completions', { model, stream: true, messages: [{ role: 'user', content: PROMPT }] });

  describe('a non-stream answer that is not the provider’s format', () => {
    it.each([
      ['not JSON', answerWith('<html><body>502 Bad Gateway</body></html>', 'text/html')],
      ['not JSON, though labelled so', answerWith('{"id":"chatcmpl-x","choices":[')],
      ['JSON without choices', answerWith(JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion' }))],
      ['a JSON list', answerWith('[1,2,3]')],
    ])('%s is a 502 in OpenAI’s shape, billed nothing', async (_case, handler) => {
      broken.use(handler);
      const error = await refusedAndFree(() => chat('gpt-4'));
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error).toMatchObject({ status: 502, code: 'bad_upstream_answer', type: 'upstream_error' });
      const raw = await rawCall('/v1/chat/completions', {
        model: 'gpt-4',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(raw.status).toBe(502);
      expect(JSON.parse(raw.text)).toEqual({
        error: {
          message: expect.stringContaining('not a valid answer'),
          type: 'upstream_error',
          param: '',
          code: 'bad_upstream_answer',
        },
      });
    });

    it('an embeddings answer without data is refused the same way', async () => {
      broken.use(answerWith(JSON.stringify({ object: 'list', model: 'text-embedding-ada-002' })));
      const error = await refusedAndFree(() =>
        customer.openai.embeddings.create({ model: 'text-embedding-ada-002', input: 'hello' }),
      );
      expect(error).toMatchObject({ status: 502, code: 'bad_upstream_answer' });
    });

    it('is tried on the next channel, which answers and alone is billed', async () => {
      broken.use(answerWith('Service temporarily unavailable', 'text/plain'));
      const calls = broken.requests.length;
      await t.app.services.relay.settled();
      const before = await balances(t, customer.userId, customer.token.id);
      const answer = await chat('gpt-3.5-turbo');
      expect(answer.choices[0]?.message.content).toBe('A whole answer');
      expect(broken.requests.length - calls).toBe(1);
      await t.app.services.relay.settled();
      const after = await balances(t, customer.userId, customer.token.id);
      const log = (await consumeLogs(t, customer.userId)).at(-1)!;
      // The healthy channel's reported usage: 11 prompt + 7 completion tokens at 0.25 × (11 + 7 × 3).
      expect(log).toMatchObject({ channel_id: healthyChannel, prompt_tokens: 11, completion_tokens: 7 });
      expect(before.quota - after.quota).toBe(Math.ceil((11 + 7 * 3) * 0.25));
      expect(before.remain - after.remain).toBe(log.quota);
    });

    it('speech is audio bytes: that non-JSON answer still passes', async () => {
      broken.use(openAiHandler());
      const speech = await customer.openai.audio.speech.create({
        model: 'tts-1',
        input: 'hi',
        voice: 'alloy',
      });
      expect(Buffer.from(await speech.arrayBuffer()).toString()).toBe('ID3fake-mp3-bytes');
    });
  });

  describe('a stream whose first event is garbage', () => {
    it('is a 502 when no other channel serves the model, billed nothing', async () => {
      broken.use(answerWith('data: <html>oops</html>\n\ndata: [DONE]\n\n', 'text/event-stream'));
      const error = await refusedAndFree(async () => {
        const stream = await customer.openai.chat.completions.create({
          model: 'gpt-4',
          messages: [{ role: 'user', content: 'hi' }],
          stream: true,
        });
        for await (const _chunk of stream) {
          // drain
        }
      });
      expect(error).toMatchObject({ status: 502, code: 'bad_upstream_answer' });
    });

    it('is tried on the next channel, whose stream the client gets whole', async () => {
      broken.use(answerWith('data: this is not an event\n\n', 'text/event-stream'));
      const stream = await customer.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      let text = '';
      for await (const piece of stream) text += piece.choices[0]?.delta?.content ?? '';
      expect(text).toBe('A whole answer');
      await t.app.services.relay.settled();
      expect((await consumeLogs(t, customer.userId)).at(-1)).toMatchObject({ channel_id: healthyChannel });
    });
  });

  describe('a stream that breaks after some chunks', () => {
    const WORDS = ['The', 'first', 'words', 'of', 'an', 'answer'];

    /** The client got the chunks, then an error event and no [DONE]; it paid for what it got. */
    async function expectEndedInError(end: Parameters<typeof streamThatBreaks>[1], code: string) {
      broken.use(streamThatBreaks(WORDS, end));
      await t.app.services.relay.settled();
      const before = await balances(t, customer.userId, customer.token.id);
      const raw = await streamChat();
      expect(raw.status).toBe(200);
      expect(raw.text).not.toContain('[DONE]');
      const last = JSON.parse(raw.data.at(-1)!) as { error?: Record<string, unknown> };
      expect(last.error).toMatchObject({ code, message: expect.any(String), type: expect.any(String) });
      const chunks = raw.data.slice(0, -1).map((data) => JSON.parse(data) as OpenAI.ChatCompletionChunk);
      const delivered = chunks.map((piece) => piece.choices[0]?.delta?.content ?? '').join('');
      expect(delivered).toBe(WORDS.join(' '));

      await t.app.services.relay.settled();
      const after = await balances(t, customer.userId, customer.token.id);
      const log = (await consumeLogs(t, customer.userId)).at(-1)!;
      const prompt = 3 + 3 + countCl100k(PROMPT) + countCl100k('user');
      const completion = countCl100k(delivered);
      const quota = Math.ceil((prompt + completion * 3) * 0.25);
      expect(log).toMatchObject({
        channel_id: brokenChannel,
        prompt_tokens: prompt,
        completion_tokens: completion,
        quota,
      });
      expect(before.quota - after.quota).toBe(quota);
      expect(after.usedQuota - before.usedQuota).toBe(quota);
      expect(after.requestCount - before.requestCount).toBe(1);
      expect(after.held).toBe(before.held);
      expect(before.remain - after.remain).toBe(quota);
      expect(after.tokenUsed - before.tokenUsed).toBe(quota);
      expect(after.tokenHeld).toBe(before.tokenHeld);
      return raw;
    }

    it('cut: ends with an error event, no [DONE], billed for the delivered tokens', async () => {
      await expectEndedInError('cut', 'upstream_broken');
    });

    it('closed cleanly without finish_reason or [DONE]: ends the same way', async () => {
      await expectEndedInError('close', 'upstream_broken');
    });

    it('silent for RELAY_TIMEOUT: ends the same way within the timeout', async () => {
      const raw = await expectEndedInError('silence', 'upstream_timeout');
      expect(raw.ms).toBeGreaterThanOrEqual(RELAY_TIMEOUT_MS);
      // Not twice the limit: the silence is counted once, from the last event (a busy CI added 1.8 s).
      expect(raw.ms).toBeLessThan(2 * RELAY_TIMEOUT_MS);
    });

    it('garbage later on: ends the same way, the garbage not relayed', async () => {
      const raw = await expectEndedInError(
        { garbage: '<html>upstream proxy error</html>' },
        'bad_upstream_answer',
      );
      expect(raw.text).not.toContain('<html>');
    });

    it("a provider's error event quoting the channel's key reaches the client without it", async () => {
      const quoting = JSON.stringify({
        error: { message: 'Incorrect API key provided: sk-upstream-key', type: 'invalid_request_error' },
      });
      broken.use(streamThatBreaks(WORDS, { garbage: quoting }));
      const raw = await streamChat();
      expect(raw.text).toContain('Incorrect API key provided');
      expect(raw.text).not.toContain('upstream-key');
      expect(raw.text).not.toContain('[DONE]');
    });

    it('the OpenAI SDK raises the error for a cut stream', async () => {
      broken.use(streamThatBreaks(WORDS, 'cut'));
      const stream = await customer.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: PROMPT }],
        stream: true,
      });
      let text = '';
      const error = await (async () => {
        for await (const piece of stream) text += piece.choices[0]?.delta?.content ?? '';
      })().catch((failure: unknown) => failure);
      expect(text).toBe(WORDS.join(' '));
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('broke off');
    });

    it('the Anthropic front ends it with an Anthropic error event, which its SDK raises', async () => {
      broken.use(streamThatBreaks(WORDS, 'cut'));
      const raw = await rawCall('/v1/messages', {
        model: 'gpt-3.5-turbo',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
      });
      const events = [...raw.text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
      expect(events.at(-1)).toBe('error');
      expect(events).not.toContain('message_stop');
      expect(JSON.parse(raw.data.at(-1)!)).toMatchObject({ type: 'error', error: { type: 'api_error' } });

      broken.use(streamThatBreaks(WORDS, 'cut'));
      const claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
      let text = '';
      const error = await (async () => {
        const stream = claude.messages.stream({
          model: 'gpt-3.5-turbo',
          max_tokens: 100,
          messages: [{ role: 'user', content: PROMPT }],
        });
        for await (const event of stream) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
            text += event.delta.text;
        }
      })().catch((failure: unknown) => failure);
      expect(text).toBe(WORDS.join(' '));
      expect(error).toBeInstanceOf(Anthropic.APIError);
    });
  });

  describe('a stream that closes cleanly before its end event is broken, not whole', () => {
    /** Server-sent events, then a clean close. */
    const eventsThenClose = (events: Array<{ event?: string; data: unknown }>) =>
      answerWith(
        events
          .map(({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
          .join(''),
        'text/event-stream',
      );
    const claudeWithoutStop = eventsThenClose([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-3-5-sonnet-20241022',
            content: [],
            stop_reason: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an' } },
      },
    ]);
    const geminiWithoutFinish = eventsThenClose([
      { data: { candidates: [{ content: { role: 'model', parts: [{ text: 'Half an' }] }, index: 0 }] } },
    ]);
    const responsesWithoutCompleted = eventsThenClose([
      {
        event: 'response.created',
        data: {
          type: 'response.created',
          sequence_number: 0,
          response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [] },
        },
      },
      {
        event: 'response.output_text.delta',
        data: {
          type: 'response.output_text.delta',
          sequence_number: 1,
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'Half an',
        },
      },
    ]);

    /** The delivered part was billed: one more log, with completion tokens. */
    async function billedOnce(call: () => Promise<RawStream>): Promise<RawStream> {
      await t.app.services.relay.settled();
      const logs = (await consumeLogs(t, customer.userId)).length;
      const raw = await call();
      await t.app.services.relay.settled();
      const after = await consumeLogs(t, customer.userId);
      expect(after).toHaveLength(logs + 1);
      expect(after.at(-1)!.completion_tokens).toBeGreaterThan(0);
      return raw;
    }

    /** An OpenAI chat stream that ended in an error event, without [DONE]. */
    function expectChatBroken(raw: RawStream) {
      expect(raw.status).toBe(200);
      expect(raw.text).toContain('Half an');
      expect(raw.text).not.toContain('[DONE]');
      expect(JSON.parse(raw.data.at(-1)!)).toMatchObject({ error: { code: 'upstream_broken' } });
    }

    /** An Anthropic stream that ended in an error event, without message_stop. */
    function expectMessagesBroken(raw: RawStream) {
      expect(raw.status).toBe(200);
      const events = [...raw.text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
      expect(events.at(-1)).toBe('error');
      expect(events).not.toContain('message_stop');
      expect(raw.text).not.toContain('end_turn');
    }

    const messages = (model: string) =>
      rawCall('/v1/messages', {
        model,
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
      });

    it('an OpenAI stream on /v1/messages gets an error event, no invented end_turn', async () => {
      broken.use(streamThatBreaks(['Half', 'an'], 'close'));
      expectMessagesBroken(await billedOnce(() => messages('gpt-4')));
    });

    it('an OpenAI chunk that says why it finished makes the answer whole without [DONE]', async () => {
      broken.use(
        answerWith(
          `data: ${JSON.stringify({
            id: 'chatcmpl-whole',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'gpt-4',
            choices: [{ index: 0, delta: { content: 'Whole' }, finish_reason: 'stop' }],
          })}\n\n`,
          'text/event-stream',
        ),
      );
      const raw = await streamChat('gpt-4');
      expect(raw.data).toEqual([expect.stringContaining('Whole'), '[DONE]']);
    });

    it('an Anthropic stream without message_stop, translated for chat', async () => {
      native.use(claudeWithoutStop);
      expectChatBroken(await billedOnce(() => streamChat('claude-3-5-sonnet-20241022')));
    });

    it('an Anthropic stream without message_stop, passed through to /v1/messages', async () => {
      native.use(claudeWithoutStop);
      const raw = await billedOnce(() => messages('claude-3-5-sonnet-20241022'));
      expectMessagesBroken(raw);
      expect(raw.text).toContain('Half an');
    });

    it('a Gemini stream without a finishReason, translated for chat and passed through', async () => {
      native.use(geminiWithoutFinish);
      expectChatBroken(await billedOnce(() => streamChat(GEMINI_MODEL)));

      native.use(geminiWithoutFinish);
      const raw = await billedOnce(async () => {
        const started = performance.now();
        const response = await fetch(
          `${t.baseUrl}/v1beta/models/${GEMINI_MODEL}:streamGenerateContent?alt=sse`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${customer.token.key}` },
            body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
          },
        );
        const text = await response.text();
        return { status: response.status, text, data: [], ms: performance.now() - started };
      });
      expect(raw.status).toBe(200);
      expect(raw.text).toContain('Half an');
      const frames = raw.text.split('\n\n').filter((frame) => frame.startsWith('data: '));
      expect(JSON.parse(frames.at(-1)!.slice(6))).toMatchObject({ error: expect.any(Object) });
    });

    it('a Responses stream without response.completed, passed through', async () => {
      broken.use(responsesWithoutCompleted);
      const raw = await billedOnce(() =>
        rawCall('/v1/responses', { model: 'gpt-4', stream: true, input: PROMPT }),
      );
      expect(raw.status).toBe(200);
      expect(raw.text).toContain('Half an');
      const events = [...raw.text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
      expect(events).not.toContain('response.completed');
      expect(events.at(-1)).toMatch(/^(error|response\.failed)$/);
    });
  });

  describe('native adaptors go through the same check', () => {
    it.each(NATIVE)('a $name answer of another shape is a 502, billed nothing', async ({ model }) => {
      native.use(answerWith(JSON.stringify({ unexpected: true })));
      const error = await refusedAndFree(() => chat(model));
      expect(error).toMatchObject({ status: 502, code: 'bad_upstream_answer' });
    });

    const streamOf = async (model: string) => {
      const stream = await customer.openai.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      for await (const _chunk of stream) {
        // drain
      }
    };

    it('an Anthropic stream whose first event is garbage is a 502, billed nothing', async () => {
      native.use(answerWith('event: message_start\ndata: <html>proxy error</html>\n\n', 'text/event-stream'));
      const error = await refusedAndFree(() => streamOf('claude-3-5-sonnet-20241022'));
      expect(error).toMatchObject({ status: 502, code: 'bad_upstream_answer' });
    });

    it('an error the provider sends mid-stream ends it with an error event, no [DONE]', async () => {
      const line = (content: string) =>
        JSON.stringify({ model: 'llama3:latest', message: { role: 'assistant', content }, done: false });
      native.use(
        answerWith(
          `${line('Half')}\n${line(' an answer')}\n{"error":"the model runner crashed"}\n`,
          'application/x-ndjson',
        ),
      );
      const raw = await streamChat('llama3:latest');
      expect(raw.text).not.toContain('[DONE]');
      const chunks = raw.data.slice(0, -1).map((data) => JSON.parse(data) as OpenAI.ChatCompletionChunk);
      expect(chunks.map((piece) => piece.choices[0]?.delta?.content ?? '').join('')).toBe('Half an answer');
      expect(JSON.parse(raw.data.at(-1)!)).toMatchObject({
        error: { message: expect.stringContaining('the model runner crashed') },
      });
    });

    it('an Ollama stream whose first line is garbage is a 502, billed nothing', async () => {
      native.use(answerWith('<html>gateway error</html>\n', 'application/x-ndjson'));
      const error = await refusedAndFree(() => streamOf('llama3:latest'));
      expect(error).toMatchObject({ status: 502, code: 'bad_upstream_answer' });
    });
  });
});
