import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from '../../adaptors/anthropic/request';
import type { AnthropicRequest } from '../../adaptors/anthropic/wire';
import { anthropicToOpenAi } from './request';
import { openAiToAnthropic } from './response';
import { AnthropicStreamWriter } from './stream';

const request: AnthropicRequest = {
  model: 'claude-3-5-sonnet-20241022',
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather here?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } }],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: '-3' },
        { type: 'text', text: 'And?' },
      ],
    },
  ],
  max_tokens: 300,
  temperature: 0.5,
  stop_sequences: ['END'],
  tools: [{ name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: {} } }],
  tool_choice: { type: 'tool', name: 'weather', disable_parallel_tool_use: true },
  metadata: { user_id: 'u1' },
};

/** `event: x\ndata: {...}\n\n` frames → their event names and parsed data. */
const frames = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [eventLine = '', dataLine = ''] = frame.split('\n');
      return {
        event: eventLine.replace(/^event: /, ''),
        data: JSON.parse(dataLine.replace(/^data: /, '')) as Record<string, unknown>,
      };
    });

describe('the /v1/messages front: Anthropic requests in, OpenAI pipeline, Anthropic answers out', () => {
  it('converts an Anthropic request to OpenAI', () => {
    expect(anthropicToOpenAi(request as unknown as Record<string, unknown>)).toEqual({
      model: 'claude-3-5-sonnet-20241022',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '-3' },
        { role: 'user', content: 'And?' },
      ],
      max_tokens: 300,
      temperature: 0.5,
      stop: ['END'],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Weather',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      user: 'u1',
    });
  });

  it('comes back unchanged through the Anthropic channel converter', () => {
    const roundTrip = toAnthropicRequest(
      anthropicToOpenAi(request as unknown as Record<string, unknown>),
      request.model,
    );
    expect(roundTrip).toEqual({ ...request, system: 'Be brief.' });
  });

  it('refuses requests Anthropic would refuse', () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
    expect(() => anthropicToOpenAi({ ...base, model: undefined })).toThrow(/model/);
    expect(() => anthropicToOpenAi({ ...base, max_tokens: undefined })).toThrow(/max_tokens/);
    expect(() => anthropicToOpenAi({ ...base, messages: [] })).toThrow(/messages/);
  });

  it('converts an OpenAI completion to an Anthropic message', () => {
    const completion = {
      id: 'chatcmpl-abc',
      choices: [
        {
          message: {
            content: 'Checking.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 7 },
    };
    expect(openAiToAnthropic(completion, 'gpt-4o')).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Oslo' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 7 },
    });
    // An Anthropic channel's own message id (behind the OpenAI prefix) comes back as it was.
    expect(openAiToAnthropic({ ...completion, id: 'chatcmpl-msg_01X' }, 'm').id).toBe('msg_01X');
  });

  it('turns OpenAI chunks into Anthropic events with blocks opened and closed in order', () => {
    const writer = new AnthropicStreamWriter('gpt-4o', 'msg_request');
    const chunks = [
      { id: 'chatcmpl-1', choices: [{ delta: { content: 'Hi' } }] },
      { id: 'chatcmpl-1', choices: [{ delta: { content: ' there' } }] },
      {
        choices: [
          { delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '' } }] } },
        ],
      },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] } }] },
      { choices: [{ delta: {}, finish_reason: 'tool_calls' }] },
      { choices: [], usage: { prompt_tokens: 12, completion_tokens: 9 } },
    ];
    const text = chunks.map((chunk) => writer.chunk(JSON.stringify(chunk))).join('') + writer.chunk('[DONE]');
    const events = frames(text + writer.finish());
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.every((event) => event.data.type === event.event)).toBe(true);
    expect(events[0]!.data).toMatchObject({ message: { id: 'msg_1', model: 'gpt-4o', role: 'assistant' } });
    expect(events[6]!.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
    });
    expect(events[7]!.data).toMatchObject({ index: 1, delta: { partial_json: '{"a":1}' } });
    expect(events[9]!.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 12, output_tokens: 9 },
    });
  });

  it('ends a stream that breaks off with an error event and no message_stop', () => {
    const writer = new AnthropicStreamWriter('claude', 'msg_request');
    const text =
      writer.chunk(JSON.stringify({ choices: [{ delta: { content: 'par' } }] })) +
      writer.chunk(
        JSON.stringify({ error: { message: 'Overloaded', type: 'overloaded_error', code: null } }),
      ) +
      writer.chunk('[DONE]') +
      writer.finish();
    const events = frames(text);
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'error',
    ]);
    expect(events[0]!.data).toMatchObject({ message: { id: 'msg_request' } });
    expect(events.at(-1)!.data).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    // A type Anthropic does not know is an api_error.
    const other = new AnthropicStreamWriter('m', 'msg_r');
    expect(
      frames(other.chunk(JSON.stringify({ error: { message: 'boom', type: 'server_error' } }))).at(-1),
    ).toMatchObject({ data: { error: { type: 'api_error', message: 'boom' } } });
  });
});
