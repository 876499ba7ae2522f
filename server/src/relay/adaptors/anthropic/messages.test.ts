import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './messages';
import { toAnthropicRequest } from './request';

describe('OpenAI messages → Anthropic', () => {
  it('lifts every system and developer message and joins them', () => {
    const { system, messages } = toAnthropicMessages([
      { role: 'system', content: 'one' },
      { role: 'user', content: 'hi' },
      { role: 'developer', content: [{ type: 'text', text: 'two' }] },
    ]);
    expect(system).toBe('one\n\ntwo');
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('turns a system prompt alone into the user turn', () => {
    expect(toAnthropicMessages([{ role: 'system', content: 'Say hi' }])).toEqual({
      system: undefined,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }],
    });
  });

  it('drops empty turns, so the neighbours merge', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'b' },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('keeps arguments that are not a JSON object as an object', () => {
    const { messages } = toAnthropicMessages([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: 'not json' } }],
      },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'tool_use', id: 't1', name: 'f', input: { arguments: 'not json' } },
    ]);
  });

  it('sends no tool_choice without tools, and max_completion_tokens as max_tokens', () => {
    const request = toAnthropicRequest(
      { messages: [{ role: 'user', content: 'x' }], tool_choice: 'auto', max_completion_tokens: 99 },
      'claude-3-haiku-20240307',
    );
    expect(request).toEqual({
      model: 'claude-3-haiku-20240307',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      max_tokens: 99,
    });
  });
});
