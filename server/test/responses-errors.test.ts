import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter } from '../src/relay/pipeline/tokenizer';
import { HttpFake } from './fakes/http-fake';
import { openAiError } from './fakes/openai';
import { type ScriptedAnswer, scriptedChatHandler } from './fakes/openai-scripted';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer, openAiFor } from './relay-setup';

const MODEL = 'gpt-4o';
/** The custom channel type: OpenAI-compatible, reached through the chat translation. */
const CUSTOM = 8;

/** Every failure on /v1/responses reaches the OpenAI SDK as its own error class, and costs what was delivered. */
describe('/v1/responses errors', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  const answer = (script: ScriptedAnswer) => fake.use(scriptedChatHandler(() => script));

  beforeAll(async () => {
    fake = await new HttpFake(scriptedChatHandler(() => ({ content: 'ok' }))).start();
    t = await startTestApp();
    const root = await t.root();
    // An OpenAI-compatible channel that speaks chat only: translated (OpenAI and Azure pass through).
    await createChannel(root, { type: CUSTOM, base_url: fake.url, models: MODEL });
    customer = await createCustomer(t, 'resperrors', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const postRaw = (body: string) =>
    fetch(`${t.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body,
    });

  it.each([
    { status: 429, SdkError: OpenAI.RateLimitError, says: /saturated/ },
    { status: 400, SdkError: OpenAI.BadRequestError, says: /prompt is too long/ },
  ])('an upstream $status reaches the SDK as its error class, refunded and unlogged', async (spec) => {
    fake.use(
      openAiError(spec.status, 'prompt is too long', 'invalid_request_error', 'context_length_exceeded'),
    );
    for (const stream of [false, true]) {
      const { error, refunded, logged } = await expectRefunded(t, customer, () =>
        stream
          ? customer.openai.responses.stream({ model: MODEL, input: 'x' }).finalResponse()
          : customer.openai.responses.create({ model: MODEL, input: 'x' }),
      );
      expect(error).toBeInstanceOf(spec.SdkError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(spec.status);
      expect(String((error as Error).message)).toMatch(spec.says);
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    }
  });

  it.each([
    {
      name: 'a hosted tool type',
      body: { input: 'x', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] },
      code: 'unsupported_tool_type',
      param: 'tools[0].type',
    },
    {
      name: 'an image by file id',
      body: {
        input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-123', detail: 'auto' }] }],
      },
      code: 'unsupported_parameter',
      param: 'input[0].content[0].file_id',
    },
    {
      name: 'a file input',
      body: { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] },
      code: 'unsupported_content_type',
      param: 'input[0].content[0].type',
    },
    { name: 'no input', body: {}, code: 'invalid_request', param: 'input' },
    {
      name: 'a bad role',
      body: { input: [{ role: 'tool', content: 'x' }] },
      code: 'invalid_request',
      param: 'input[0].role',
    },
    {
      name: 'max_output_tokens 0',
      body: { input: 'x', max_output_tokens: 0 },
      code: 'invalid_request',
      param: 'max_output_tokens',
    },
    {
      name: 'previous_response_id',
      body: { input: 'x', previous_response_id: 'resp_123' },
      code: 'responses_not_stored',
      param: 'previous_response_id',
    },
    {
      name: 'an item reference',
      body: { input: [{ type: 'item_reference', id: 'msg_1' }] },
      code: 'responses_not_stored',
      param: 'input[0].type',
    },
  ])('$name: a 400 BadRequestError naming the parameter, nothing sent upstream or charged', async (spec) => {
    const received = fake.requests.length;
    const { error, refunded, logged } = await expectRefunded(t, customer, () =>
      customer.openai.responses.create({
        model: MODEL,
        ...spec.body,
      } as OpenAI.Responses.ResponseCreateParamsNonStreaming),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      code: spec.code,
      param: spec.param,
      type: 'invalid_request_error',
    });
    expect(fake.requests.length).toBe(received);
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
  });

  it('previous_response_id says why: the gateway is stateless', async () => {
    const error = await customer.openai.responses
      .create({ model: MODEL, input: 'x', previous_response_id: 'resp_123' })
      .catch((failure: unknown) => failure);
    expect(String((error as Error).message)).toContain(
      'not supported: this gateway is stateless and does not store responses',
    );
  });

  it('a body that is not JSON, or without a model, is a 400 in OpenAI shape', async () => {
    const garbled = await postRaw('{"model":');
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({
      error: { code: 'invalid_json', type: 'invalid_request_error' },
    });
    const modelless = await postRaw(JSON.stringify({ input: 'x' }));
    expect(modelless.status).toBe(400);
    expect(await modelless.json()).toMatchObject({
      error: { param: 'model', type: 'invalid_request_error' },
    });
  });

  it('retrieve, delete, cancel and input items: 404 NotFoundError, responses_not_stored', async () => {
    const calls = [
      () => customer.openai.responses.retrieve('resp_abc'),
      () => customer.openai.responses.delete('resp_abc'),
      () => customer.openai.responses.cancel('resp_abc'),
      () => customer.openai.responses.inputItems.list('resp_abc'),
    ];
    for (const call of calls) {
      const error = await call().catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'responses_not_stored' });
      expect(String((error as Error).message)).toContain("Response 'resp_abc' cannot be found");
    }
  });

  it('a wrong key is an AuthenticationError, on every Responses path', async () => {
    const stranger = openAiFor(t, 'sk-not-a-key');
    for (const call of [
      () => stranger.responses.create({ model: MODEL, input: 'x' }),
      () => stranger.responses.retrieve('resp_abc'),
    ]) {
      expect(await call().catch((failure: unknown) => failure)).toBeInstanceOf(OpenAI.AuthenticationError);
    }
  });

  describe('a stream the upstream cuts off half-way', () => {
    const PROMPT = 'Tell me a story';
    const WORDS = 'Once upon a time there';

    it('the SDK raises the error event; the deltas before it arrived; billed for what was delivered', async () => {
      answer({ content: WORDS, cutAfterContent: true, usage: null });
      const deltas: string[] = [];
      let error: unknown;
      const { quota, log } = await spentBy(t, customer, async () => {
        const stream = customer.openai.responses.stream({ model: MODEL, input: PROMPT });
        stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
        error = await stream.finalResponse().catch((failure: unknown) => failure);
      });
      expect(deltas.join('')).toBe(WORDS);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('broke off');
      const counter = createTokenCounter(() => false);
      const prompt = counter.messages([{ role: 'user', content: PROMPT }], MODEL);
      const completion = counter.text(WORDS, MODEL);
      const expected = expectedQuota(MODEL, CUSTOM, { prompt, completion });
      expect(log).toMatchObject({ prompt_tokens: prompt, completion_tokens: completion, quota: expected });
      expect(quota).toBe(expected);
    });

    it('on the wire: an error event (flat and nested fields), then response.failed, no [DONE]', async () => {
      answer({ content: WORDS, cutAfterContent: true, usage: null });
      const response = await postRaw(JSON.stringify({ model: MODEL, input: PROMPT, stream: true }));
      const text = await response.text();
      expect(text).not.toContain('[DONE]');
      const frames = text
        .trim()
        .split('\n\n')
        .map((frame) => JSON.parse(frame.split('\n')[1]!.slice('data: '.length)) as Record<string, unknown>);
      expect(frames.map((frame) => frame.type).slice(-2)).toEqual(['error', 'response.failed']);
      expect(frames.at(-2)).toMatchObject({
        code: 'upstream_broken',
        message: expect.stringContaining('broke off'),
        error: { code: 'upstream_broken', message: expect.stringContaining('broke off') },
      });
      expect(frames.at(-1)).toMatchObject({
        response: {
          status: 'failed',
          error: { code: 'upstream_broken' },
          output: [
            { type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: WORDS }] },
          ],
        },
      });
      expect(frames.map((frame) => frame.sequence_number)).toEqual(frames.map((_, index) => index));
    });
  });
});
