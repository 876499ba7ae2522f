import { describe, expect, it } from 'vitest';
import { RelayError } from '../../errors';
import { responsesToChat } from './request';

const fn = (name: string) => ({ type: 'function', name, parameters: { type: 'object', properties: {} } });

describe('Responses requests as chat requests', () => {
  it('parallel function calls replayed after a message join that assistant turn; reasoning items are dropped', () => {
    const chat = responsesToChat({
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'Two cities?' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking both.' }] },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call', call_id: 'c2', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: '-3' }] },
        { type: 'function_call_output', call_id: 'c2', output: '25' },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'Two cities?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
          { id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '-3' },
      { role: 'tool', tool_call_id: 'c2', content: '25' },
    ]);
  });

  it('allowed_tools narrows the tools to those it names, in its mode', () => {
    const chat = responsesToChat({
      model: 'gpt-4o',
      input: 'x',
      tools: [fn('a'), fn('b'), fn('c')],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'b' }] },
    });
    expect(chat.tools).toEqual([
      { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(chat.tool_choice).toBe('required');
  });

  it('a tool_choice without tools is left out; an unknown one is refused', () => {
    expect(responsesToChat({ model: 'm', input: 'x', tool_choice: 'required' })).not.toHaveProperty(
      'tool_choice',
    );
    const refused = (() => {
      try {
        return responsesToChat({
          model: 'm',
          input: 'x',
          tools: [fn('a')],
          tool_choice: { type: 'file_search' },
        });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(RelayError);
    expect(refused).toMatchObject({ status: 400, code: 'unsupported_tool_choice', param: 'tool_choice' });
  });

  it('store, metadata, plain text format and stream are accepted without reaching the chat body', () => {
    expect(
      responsesToChat({
        model: 'm',
        input: 'x',
        store: true,
        metadata: { a: 'b' },
        text: { format: { type: 'text' } },
        stream: true,
      }),
    ).toEqual({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
  });
});
