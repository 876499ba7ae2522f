import { describe, expect, it } from 'vitest';
import {
  audioRatiosOf,
  DEFAULT_AUDIO_COMPLETION_RATIO_JSON,
  DEFAULT_AUDIO_RATIO_JSON,
  resolveAudioRatios,
} from './audio-ratios';
import { OPTION_SPECS, optionValueRefusal } from './options';

const none = { audio: {}, completion: {}, cacheReadRatio: 0.1 };

describe('audio ratios', () => {
  it("default to the table, which the options' defaults spell out", () => {
    expect(JSON.parse(DEFAULT_AUDIO_RATIO_JSON)).toMatchObject({
      'gpt-realtime': 8,
      'gpt-4o-realtime-preview': 8,
    });
    expect(JSON.parse(DEFAULT_AUDIO_COMPLETION_RATIO_JSON)).toMatchObject({ 'gpt-realtime': 2 });
    expect(OPTION_SPECS.AudioRatio.default).toBe(DEFAULT_AUDIO_RATIO_JSON);
    expect(optionValueRefusal('AudioCompletionRatio', DEFAULT_AUDIO_COMPLETION_RATIO_JSON)).toBeNull();
    expect(optionValueRefusal('AudioRatio', '{"gpt-realtime":-1}')).not.toBeNull();
    expect(resolveAudioRatios('gpt-realtime', 1, none)).toEqual(audioRatiosOf('gpt-realtime'));
    expect(resolveAudioRatios('gpt-4o', 1, none)).toBeUndefined();
  });

  it('take what root configured, by "name(type)" first, the cached audio price kept', () => {
    const configured = {
      audio: { 'gpt-realtime': 10, 'gpt-realtime(3)': 12, 'my-voice': 4 },
      completion: { 'gpt-realtime': 3 },
      cacheReadRatio: 0.5,
    };
    expect(resolveAudioRatios('gpt-realtime', 1, configured)).toEqual({
      input: 10,
      cachedInput: 0.1,
      output: 30,
    });
    expect(resolveAudioRatios('gpt-realtime', 3, configured)?.input).toBe(12);
    // A model the table lacks: its audio output costs its audio input, cached audio at the cache read ratio.
    expect(resolveAudioRatios('my-voice', 1, configured)).toEqual({ input: 4, cachedInput: 2, output: 4 });
  });
});
