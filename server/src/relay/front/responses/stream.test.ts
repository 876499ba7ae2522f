import { describe, expect, it } from 'vitest';
import { ResponsesStreamWriter } from './stream';

const context = {
  requestId: '42',
  model: 'gpt-4o',
  createdAt: 1,
  request: { model: 'gpt-4o', input: 'x' },
  tools: new Map(),
};

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta, finish_reason: finish }] });

/** `event: x\ndata: {...}\n\n` frames → their parsed data, checking each event name matches its type. */
const events = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [eventLine = '', dataLine = ''] = frame.split('\n');
      const data = JSON.parse(dataLine.replace(/^data: /, '')) as Record<string, unknown>;
      expect(data.type).toBe(eventLine.replace(/^event: /, ''));
      return data;
    });

describe('the Responses stream writer: chat chunks in, typed Responses events out', () => {
  it('text after a function call opens a second message item with its own id', () => {
    const writer = new ResponsesStreamWriter(context);
    const out = [
      chunk({ content: 'First.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }] }),
      chunk({ content: 'Then.' }),
      chunk({}, 'stop'),
      '[DONE]',
    ]
      .map((payload) => writer.chunk(payload))
      .join('');
    const all = events(out);
    const added = all.filter((event) => event.type === 'response.output_item.added');
    expect(added.map((event) => (event.item as { id: string }).id)).toEqual([
      'msg_42',
      'fc_42_0',
      'msg_42_2',
    ]);
    const completed = all.at(-1) as {
      type: string;
      response: { output: Array<{ id: string; status: string }> };
    };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.output.map((item) => [item.id, item.status])).toEqual([
      ['msg_42', 'completed'],
      ['fc_42_0', 'completed'],
      ['msg_42_2', 'completed'],
    ]);
    expect(writer.finish()).toBe('');
  });

  it('an error payload (the quota ran out) ends it with error and response.failed, and nothing after', () => {
    const writer = new ResponsesStreamWriter(context);
    const head = writer.chunk(chunk({ content: 'Partial' }));
    const error = JSON.stringify({
      error: {
        message: 'The answer was cut short',
        type: 'one_api_error',
        param: '',
        code: 'insufficient_user_quota',
      },
    });
    const tail = events(writer.chunk(error));
    expect(tail.map((event) => event.type)).toEqual(['error', 'response.failed']);
    expect(tail[0]).toMatchObject({
      code: 'insufficient_user_quota',
      param: null,
      error: { type: 'one_api_error', code: 'insufficient_user_quota' },
      sequence_number: events(head).length,
    });
    expect(tail[1]).toMatchObject({
      response: { status: 'failed', output: [{ id: 'msg_42', status: 'incomplete' }] },
    });
    expect(writer.chunk(chunk({ content: 'more' })) + writer.finish()).toBe('');
  });

  it('an upstream that ends without a chunk still gets a whole response', () => {
    const all = events(new ResponsesStreamWriter(context).finish());
    expect(all.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.completed',
    ]);
    expect(all[2]).toMatchObject({
      response: { id: 'resp_42', status: 'completed', output: [], usage: null },
    });
  });
});
