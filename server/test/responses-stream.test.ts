import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { type ScriptedAnswer, scriptedChatHandler } from './fakes/openai-scripted';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const OPENAI = 1;
const MODEL = 'gpt-4o';
/** The custom channel type: OpenAI-compatible, reached through the chat translation. */
const CUSTOM = 8;

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

/** Streams of /v1/responses for the OpenAI SDK, from an OpenAI channel's chat chunks. */
describe('/v1/responses streamed (typed events) over an OpenAI chat channel', () => {
  let t: TestApp;
  let fake: HttpFake;
  let customer: Customer;
  let channelId: number;
  let script: ScriptedAnswer = { content: 'Hello there' };
  const answer = (next: ScriptedAnswer) => {
    script = next;
  };
  const upstreamBody = () => fake.last().json as Record<string, unknown>;

  beforeAll(async () => {
    fake = await new HttpFake(scriptedChatHandler(() => script)).start();
    t = await startTestApp();
    const root = await t.root();
    // An OpenAI-compatible channel that speaks chat only: translated (OpenAI and Azure pass through).
    channelId = await createChannel(root, { type: CUSTOM, base_url: fake.url, models: `${MODEL},o3-mini` });
    customer = await createCustomer(t, 'streamer', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const tools: OpenAI.Responses.Tool[] = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: true,
    },
  ];

  it('responses.stream(): the documented typed events in order, numbered, then finalResponse(), billed', async () => {
    answer({
      content: 'alpha beta gamma',
      usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
    });
    const events: StreamEvent[] = [];
    const deltas: string[] = [];
    let final: OpenAI.Responses.Response | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      const stream = customer.openai.responses.stream({ model: MODEL, input: 'Stream please' });
      stream.on('event', (event) => events.push(event));
      stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
      final = await stream.finalResponse();
    });
    expect(upstreamBody()).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(deltas).toEqual(['alpha', ' beta', ' gamma']);
    expect(events[0]).toMatchObject({ response: { status: 'in_progress', output: [] } });
    expect(final).toMatchObject({
      id: expect.stringMatching(/^resp_/),
      status: 'completed',
      output: [
        {
          type: 'message',
          status: 'completed',
          content: [{ type: 'output_text', text: 'alpha beta gamma' }],
        },
      ],
      usage: { input_tokens: 12, output_tokens: 9, total_tokens: 21 },
    });
    expect(final!.output_text).toBe('alpha beta gamma');
    const expected = expectedQuota(MODEL, OPENAI, { prompt: 12, completion: 9 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({
      channel_id: channelId,
      prompt_tokens: 12,
      completion_tokens: 9,
      quota: expected,
    });
    expect(Boolean(log?.is_stream)).toBe(true);
  });

  it('create({stream: true}): reasoning, text and a function call as items; arguments in deltas', async () => {
    answer({
      reasoning: 'Need weather.',
      content: 'Checking.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
    });
    const stream = await customer.openai.responses.create({
      model: MODEL,
      input: 'Weather?',
      tools,
      stream: true,
    });
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types).toContain('response.reasoning_text.delta');
    expect(types.filter((type) => type === 'response.function_call_arguments.delta')).toHaveLength(2);
    // The message closed when the call began; the call closes with the response.
    expect(types.slice(-3)).toEqual([
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const argumentsDone = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(argumentsDone).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
      output_index: 2,
    });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.output).toEqual([
      {
        id: expect.stringMatching(/^rs_/),
        type: 'reasoning',
        status: 'completed',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Need weather.' }],
      },
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
      },
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
    ]);
  });

  it('the SDK assembles a reasoning item, text and usage details from the stream', async () => {
    answer({
      reasoning: 'Think first.',
      content: 'Done.',
      usage: {
        prompt_tokens: 40,
        completion_tokens: 30,
        total_tokens: 70,
        prompt_tokens_details: { cached_tokens: 16 },
        completion_tokens_details: { reasoning_tokens: 20 },
      },
    });
    const stream = customer.openai.responses.stream({
      model: 'o3-mini',
      input: 'Hi',
      reasoning: { effort: 'high' },
    });
    const reasoning: string[] = [];
    stream.on('response.reasoning_text.delta', (event) => reasoning.push(event.delta));
    const final = await stream.finalResponse();
    expect(upstreamBody()).toMatchObject({ reasoning_effort: 'high', stream: true });
    expect(reasoning.join('')).toBe('Think first.');
    expect(final.output).toMatchObject([
      { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'Think first.' }] },
      { type: 'message', content: [{ type: 'output_text', text: 'Done.' }] },
    ]);
    expect(final.output_text).toBe('Done.');
    expect(final.reasoning).toEqual({ effort: 'high', summary: null });
    expect(final.usage).toMatchObject({
      input_tokens_details: { cached_tokens: 16 },
      output_tokens_details: { reasoning_tokens: 20 },
    });
  });

  it('max_output_tokens reached mid-stream: response.incomplete ends it; no [DONE] on the wire', async () => {
    answer({ content: 'cut short', finishReason: 'length' });
    const response = await fetch(`${t.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input: 'Go', max_output_tokens: 2, stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text).not.toContain('[DONE]');
    const frames = text
      .trim()
      .split('\n\n')
      .map((frame) => {
        const [eventLine, dataLine] = frame.split('\n');
        return {
          event: eventLine!.slice('event: '.length),
          data: JSON.parse(dataLine!.slice('data: '.length)),
        };
      });
    for (const frame of frames) expect(frame.data.type).toBe(frame.event);
    expect(frames.at(-1)).toMatchObject({
      event: 'response.incomplete',
      data: { response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } },
    });
  });
});
