import { describe, expect, it } from 'vitest';
import { RelayError } from '../../errors';
import { responsesNative } from './responses-native';

const format = () => responsesNative({ requestId: 'r1', model: 'gpt-4o', createdAt: 1, request: {} });
const usage = {
  input_tokens: 50,
  input_tokens_details: { cached_tokens: 20 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 4 },
  total_tokens: 59,
};

describe('the Responses native format', () => {
  it('reads usage (cached and reasoning) and the text of message and function call items from a body', () => {
    const body = {
      object: 'response',
      output: [
        { type: 'reasoning', summary: [] },
        {
          type: 'message',
          content: [
            { type: 'output_text', text: 'Hi ' },
            { type: 'refusal', refusal: 'x' },
          ],
        },
        { type: 'function_call', name: 'f', arguments: '{"a":1}' },
      ],
      usage,
    };
    expect(format().usage.answer(Buffer.from(JSON.stringify(body)))).toEqual({
      usage: { prompt_tokens: 50, completion_tokens: 9, cached_tokens: 20, reasoning_tokens: 4 },
      text: 'Hi f{"a":1}',
    });
    expect(format().usage.answer(Buffer.from('{"error":{"message":"no"}}'))).toBeInstanceOf(RelayError);
  });

  it('reads a stream: deltas as text, usage and the end from response.incomplete, failure from error events', () => {
    const reader = format().usage.stream();
    const read = (event: Record<string, unknown>) => reader.read(JSON.stringify(event), String(event.type));
    read({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1' } });
    read({ type: 'response.output_text.delta', sequence_number: 1, delta: 'ab' });
    read({ type: 'response.function_call_arguments.delta', sequence_number: 2, delta: '{}' });
    expect(reader.done()).toBe(false);
    read({ type: 'response.incomplete', sequence_number: 3, response: { id: 'resp_1', usage } });
    expect(reader.text()).toBe('ab{}');
    expect(reader.usage()).toMatchObject({ prompt_tokens: 50, completion_tokens: 9 });
    expect(reader.done()).toBe(true);
    expect(reader.failed()).toBe(false);
    read({ type: 'error', sequence_number: 4, code: 'server_error', message: 'boom' });
    expect(reader.failed()).toBe(true);
    expect(() => reader.read('not json', undefined)).toThrow(RelayError);
  });

  it("ends a broken stream numbered on from the upstream's last event, naming its response", () => {
    const native = format();
    const reader = native.usage.stream();
    reader.read(
      JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp_up' } }),
      '',
    );
    reader.read(JSON.stringify({ type: 'response.output_text.delta', sequence_number: 1, delta: 'a' }), '');
    const out = native.streamError(RelayError.upstream(502, 'broke', { code: 'upstream_broken' }), 'r1');
    const frames = out.trim().split('\n\n');
    expect(frames.map((frame) => frame.split('\n')[0])).toEqual(['event: error', 'event: response.failed']);
    const [error, failed] = frames.map((frame) => JSON.parse(frame.split('\n')[1]!.slice(6)));
    expect(error).toMatchObject({ sequence_number: 2, code: 'upstream_broken' });
    expect(failed).toMatchObject({ sequence_number: 3, response: { id: 'resp_up', status: 'failed' } });
  });
});
