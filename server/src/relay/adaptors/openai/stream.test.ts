import { describe, expect, it } from 'vitest';
import type { RelayCall } from '../types';
import { openAiAdaptor } from '.';

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

  it('reads the cached, audio, image, reasoning and audio output parts of the usage, leaving zeros out', () => {
    const stream = translator();
    const usage = {
      prompt_tokens: 900,
      completion_tokens: 120,
      total_tokens: 1020,
      prompt_tokens_details: { cached_tokens: 512, audio_tokens: 0, image_tokens: 85 },
      completion_tokens_details: { reasoning_tokens: 64, audio_tokens: 8, accepted_prediction_tokens: 0 },
    };
    stream.push(JSON.stringify({ id: 'c', choices: [], usage }));
    expect(stream.usage()).toEqual({
      prompt_tokens: 900,
      completion_tokens: 120,
      cached_tokens: 512,
      prompt_image_tokens: 85,
      reasoning_tokens: 64,
      completion_audio_tokens: 8,
    });
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
