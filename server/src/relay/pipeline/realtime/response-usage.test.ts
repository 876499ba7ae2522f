import { audioRatiosOf } from '@switchyard/contract/audio-ratios';
import { describe, expect, it } from 'vitest';
import { type Price, quotaFor } from '../../../domain/billing';
import { responseUsage } from './response-usage';

const done = (usage: unknown) => ({ type: 'response.done', response: { id: 'resp_1', usage } });

describe("a realtime response.done's usage", () => {
  it('reads text and audio, in and out, and the cached part of each', () => {
    const usage = responseUsage(
      done({
        total_tokens: 1830,
        input_tokens: 1100,
        output_tokens: 730,
        input_token_details: {
          cached_tokens: 400,
          text_tokens: 200,
          audio_tokens: 900,
          cached_tokens_details: { text_tokens: 100, audio_tokens: 300 },
        },
        output_token_details: { text_tokens: 30, audio_tokens: 700 },
      }),
    );
    expect(usage).toEqual({
      prompt_tokens: 1100,
      completion_tokens: 730,
      cached_tokens: 400,
      cached_audio_tokens: 300,
      prompt_audio_tokens: 900,
      completion_audio_tokens: 700,
    });
  });

  it('takes no usage for one, and nothing but whole non-negative numbers from a malformed one', () => {
    expect(responseUsage({ type: 'response.done', response: { id: 'resp_1' } })).toBeUndefined();
    expect(responseUsage({ type: 'response.done', response: 'nonsense' })).toBeUndefined();
    expect(
      responseUsage(
        done({
          input_tokens: -5,
          output_tokens: '100',
          input_token_details: { text_tokens: 7.9, audio_tokens: Number.NaN },
          output_token_details: { text_tokens: 3, audio_tokens: null },
        }),
      ),
    ).toEqual({ prompt_tokens: 7, completion_tokens: 3 });
  });
});

describe('a price with audio of its own', () => {
  const audio = audioRatiosOf('gpt-realtime')!;
  const price: Price = {
    modelRatio: 2,
    groupRatio: 1.5,
    completionRatio: 4,
    cacheReadRatio: 0.1,
    cacheWriteRatio: 1,
    imageInputRatio: 1,
    ratio: 3,
    audio,
  };

  it('bills each part at its rate', () => {
    const usage = {
      prompt_tokens: 1100,
      completion_tokens: 730,
      cached_tokens: 400,
      cached_audio_tokens: 300,
      prompt_audio_tokens: 900,
      completion_audio_tokens: 700,
    };
    // text in 200 (100 cached), audio in 900 (300 cached), text out 30, audio out 700
    const units = 100 + 100 * 0.1 + 600 * 8 + 300 * 0.1 + 30 * 4 + 700 * 16;
    expect(quotaFor(price, usage)).toBe(Math.ceil(units * 3));
  });

  it('never bills a part beyond its whole, whatever the provider claims', () => {
    const claimed = {
      prompt_tokens: 10,
      completion_tokens: 5,
      cached_tokens: 50,
      cached_audio_tokens: 50,
      prompt_audio_tokens: 50,
      completion_audio_tokens: 50,
    };
    // All 10 input tokens audio and cached, all 5 output tokens audio.
    expect(quotaFor(price, claimed)).toBe(Math.ceil((10 * audio.cachedInput + 5 * audio.output) * 3));
  });

  it('is the text price when no audio is reported', () => {
    const text = { prompt_tokens: 100, completion_tokens: 10 };
    const { audio: _audio, ...withoutAudio } = price;
    expect(quotaFor(price, text)).toBe(quotaFor(withoutAudio, text));
  });
});
