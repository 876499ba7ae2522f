import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTokenCounter } from '../src/relay/pipeline/tokenizer';
import { HttpFake } from './fakes/http-fake';
import { type FakeResponsesOptions, responsesHandler } from './fakes/openai-responses';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const MODEL = 'gpt-4o';
const KEY = 'sk-proj-passthrough-channel-key';
const USAGE = { input: 2000, output: 300, cached: 1200, reasoning: 100 };

/** The SDK's own requests and the exact bytes it received, through a recording fetch. */
function recordingOpenAi(apiKey: string, baseURL: string) {
  const exchanges: Array<{ body: string; answer: Promise<string> }> = [];
  const client = new OpenAI({
    apiKey,
    baseURL: `${baseURL}/v1`,
    maxRetries: 0,
    timeout: 20_000,
    fetch: async (url: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(url, init);
      exchanges.push({ body: String(init?.body), answer: response.clone().text() });
      return response;
    },
  });
  return { client, last: () => exchanges.at(-1)! };
}

describe.each([
  { channel: 'OpenAI', type: 1, path: '/v1/responses', auth: 'authorization', secret: `Bearer ${KEY}` },
  { channel: 'Azure', type: 3, path: '/openai/v1/responses', auth: 'api-key', secret: KEY },
])('/v1/responses passed through to an $channel channel', (spec) => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let openai: ReturnType<typeof recordingOpenAi>;
  let sent: string[];

  const answer = (options: FakeResponsesOptions) => {
    sent = [];
    fake.use(responsesHandler({ sent, ...options }));
  };

  beforeAll(async () => {
    fake = await new HttpFake(responsesHandler()).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, {
      type: spec.type,
      base_url: fake.url,
      key: KEY,
      models: `${MODEL},gpt-latest`,
      model_mapping: JSON.stringify({ 'gpt-latest': MODEL }),
    });
    customer = await createCustomer(t, `pass${spec.type}`, { quota: 100_000_000 });
    openai = recordingOpenAi(`sk-${customer.token.key}`, t.baseUrl);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('sends the client bytes with the channel key, answers the upstream bytes, bills cached and reasoning tokens', async () => {
    answer({ reply: 'Bonjour', usage: USAGE });
    const { quota, log } = await spentBy(t, customer, () =>
      openai.client.responses.create({
        model: MODEL,
        instructions: 'Be brief.',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hello 👋' }] }],
        reasoning: { effort: 'low', summary: 'auto' },
        include: ['reasoning.encrypted_content'],
        prompt_cache_key: 'customer-7',
        store: false,
      }),
    );
    const upstream = fake.last();
    expect(upstream.url).toBe(spec.path);
    expect(upstream.body).toBe(openai.last().body);
    expect(upstream.headers[spec.auth]).toBe(spec.secret);
    expect(JSON.stringify(upstream.headers)).not.toContain(customer.token.key);
    expect(await openai.last().answer).toBe(sent[0]);
    const expected = expectedQuota(MODEL, spec.type, {
      prompt: USAGE.input,
      completion: USAGE.output,
      cached: USAGE.cached,
    });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ prompt_tokens: 2000, completion_tokens: 300, quota: expected });
  });

  it('streams every event with its event: line as the upstream sent it, billed from response.completed', async () => {
    answer({
      reply: 'The answer is four',
      functionCall: { callId: 'call_1', name: 'lookup', arguments: '{"q":"2+2"}' },
      usage: USAGE,
    });
    const types: string[] = [];
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = openai.client.responses.stream({ model: MODEL, input: 'What is 2 + 2?', store: false });
      stream.on('event', (event) => types.push(event.type));
      const final = await stream.finalResponse();
      expect(final.output_text).toBe('The answer is four');
      expect(final.id).toBe('resp_fake0123');
    });
    expect(fake.last().body).toBe(openai.last().body);
    expect(await openai.last().answer).toBe(sent[0]);
    expect(sent[0]).toContain('event: response.function_call_arguments.delta\n');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(quota).toBe(expectedQuota(MODEL, spec.type, { prompt: 2000, completion: 300, cached: 1200 }));
    expect(log).toMatchObject({ prompt_tokens: 2000, completion_tokens: 300 });
  });

  it('maps the model; sends store:false unless the client asked store:true', async () => {
    answer({ reply: 'ok' });
    await openai.client.responses.create({
      model: 'gpt-latest',
      input: 'a "model": "gpt-latest" in the text',
    });
    expect(fake.last().body).toBe(
      openai
        .last()
        .body.replace('{"model":"gpt-latest"', `{"model":"${MODEL}"`)
        .replace(/}$/, ',"store":false}'),
    );
    await openai.client.responses.create({ model: MODEL, input: 'keep it', store: true });
    expect(fake.last().body).toBe(openai.last().body);
  });

  it.each([
    { status: 400, type: 'invalid_request_error', code: 'invalid_value', SdkError: OpenAI.BadRequestError },
    { status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', SdkError: OpenAI.RateLimitError },
  ])('an upstream $status reaches the SDK as its error class, refunded, unlogged', async (error) => {
    answer({ error: { status: error.status, type: error.type, code: error.code } });
    for (const stream of [false, true]) {
      const request = { model: MODEL, input: 'x' };
      const outcome = await expectRefunded(t, customer, () =>
        stream
          ? openai.client.responses.stream(request).finalResponse()
          : openai.client.responses.create(request),
      );
      expect(outcome.error).toBeInstanceOf(error.SdkError);
      expect((outcome.error as InstanceType<typeof OpenAI.APIError>).status).toBe(error.status);
      // As the provider sent it (a 429 is the gateway's own "saturated" answer, in OpenAI's shape).
      if (error.status === 400) expect(await openai.last().answer).toBe(sent.at(-1));
      expect(outcome.refunded).toBe(true);
      expect(outcome.logged).toBe(false);
    }
  });

  it('ends a stream cut mid-way with the error event and response.failed, billed for what was delivered', async () => {
    answer({ reply: 'half of an answer', usage: USAGE, cutAfterFirstDelta: true });
    const deltas: string[] = [];
    let error: unknown;
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = openai.client.responses.stream({ model: MODEL, input: 'Say something' });
      stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
      error = await stream.finalResponse().catch((failure: unknown) => failure);
    });
    expect(deltas).toEqual(['half ']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const received = await openai.last().answer;
    const head = sent[0]!;
    expect(received.startsWith(head)).toBe(true);
    const tail = received
      .slice(head.length)
      .trim()
      .split('\n\n')
      .map((frame) => frame.split('\n'));
    expect(tail.map(([event]) => event)).toEqual(['event: error', 'event: response.failed']);
    const [failure, failed] = tail.map(([, data]) => JSON.parse(data!.slice('data: '.length)));
    const upstreamEvents = head.trim().split('\n\n').length;
    expect(failure).toMatchObject({
      type: 'error',
      sequence_number: upstreamEvents,
      code: 'upstream_broken',
    });
    expect(failed).toMatchObject({
      type: 'response.failed',
      sequence_number: upstreamEvents + 1,
      response: { id: 'resp_fake0123', status: 'failed', error: { code: 'upstream_broken' } },
    });
    const counter = createTokenCounter(() => false);
    const prompt = counter.messages([{ role: 'user', content: 'Say something' }], MODEL);
    const completion = counter.text('half ', MODEL);
    const expected = expectedQuota(MODEL, spec.type, { prompt, completion });
    expect(log).toMatchObject({ prompt_tokens: prompt, completion_tokens: completion, quota: expected });
    expect(quota).toBe(expected);
  });

  it('lowers max_output_tokens, and only it, for an account that cannot pay the worst case', async () => {
    answer({ reply: 'short' });
    const poor = await createCustomer(t, `poor${spec.type}`, {
      quota: 400_000,
      token: { remain_quota: 100_000_000 },
    });
    const { client, last } = recordingOpenAi(`sk-${poor.token.key}`, t.baseUrl);
    await client.responses.create({ model: MODEL, input: 'x', max_output_tokens: 100_000, store: false });
    const lowered = Number(fake.last().json?.max_output_tokens);
    expect(lowered).toBeGreaterThan(0);
    expect(lowered).toBeLessThan(100_000);
    expect(fake.last().body).toBe(
      last().body.replace('"max_output_tokens":100000', `"max_output_tokens":${lowered}`),
    );
  });

  it('passes hosted tools, their tool choice and input files through, which chat could not carry', async () => {
    answer({ reply: 'searched' });
    const { log } = await spentBy(t, customer, () =>
      openai.client.responses.create({
        model: MODEL,
        tools: [{ type: 'web_search' }],
        tool_choice: { type: 'web_search' } as unknown as 'auto',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Summarise this and search the news' },
              { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
            ],
          },
        ],
        store: false,
      }),
    );
    expect(fake.last().body).toBe(openai.last().body);
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 4 });
  });

  it('still refuses previous_response_id: calls of one conversation may land on different accounts', async () => {
    const error = await openai.client.responses
      .create({ model: MODEL, input: 'x', previous_response_id: 'resp_abc' })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(fake.requests).toHaveLength(0);
  });
});
