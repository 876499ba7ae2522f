import { describe, expect, it } from 'vitest';
import { openAiAdaptor } from './openai';
import type { RelayCall } from './types';

const translator = () => openAiAdaptor().streamTranslator({} as RelayCall);
const chunk = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
    ...extra,
  });

describe('the OpenAI stream translator', () => {
  it('passes chunks through and reads the text of a long stream in order, without usage', () => {
    const stream = translator();
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `);
    for (const word of words) expect(stream.push(chunk(word))).toEqual([chunk(word)]);
    expect(stream.push('[DONE]')).toEqual([]);
    expect(stream.done()).toBe(true);
    expect(stream.usage()).toBeUndefined();
    expect(stream.text()).toBe(words.join(''));
  });

  it('takes the usage chunk, ignores "usage": null, and keeps text order around it', () => {
    const stream = translator();
    stream.push(chunk('a', { usage: null }));
    stream.push(chunk('b', { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }));
    stream.push(chunk('c'));
    expect(stream.usage()).toEqual({ prompt_tokens: 3, completion_tokens: 2 });
    expect(stream.text()).toBe('abc');
  });

  it("drops Azure's chunks with neither choices nor usage, and keeps a usage-only chunk", () => {
    const stream = translator();
    expect(stream.push(JSON.stringify({ id: 'c', choices: [] }))).toEqual([]);
    const usageOnly = JSON.stringify({
      id: 'c',
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    expect(stream.push(usageOnly)).toEqual([usageOnly]);
  });

  it('refuses what is not a JSON object as a bad answer', () => {
    const stream = translator();
    for (const garbage of ['not json', '<html>', '{"id":"c","choices":[{"delta":{"content":"tr']) {
      expect(() => stream.push(garbage)).toThrow(expect.objectContaining({ code: 'bad_upstream_answer' }));
    }
    expect(stream.push(` ${chunk('a')} `)).toEqual([` ${chunk('a')} `]);
    expect(stream.text()).toBe('a');
  });
});
