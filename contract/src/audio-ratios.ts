import { DEFAULT_MODEL_RATIO, lookupInOrder, type RatioMap, toOptionJson } from './model-ratios';

/**
 * Audio token prices of the models that bill audio apart from text (the Realtime API's), as
 * fractions of the model's text input price (its ModelRatio): audio input, cached audio input and
 * audio output. OpenAI's list prices per million tokens:
 *
 * | model | text in / cached / out | audio in / cached / out |
 * |---|---|---|
 * | gpt-4o-realtime-preview (2024-12-17, 2025-06-03) | $5 / $2.50 / $20 | $40 / $2.50 / $80 |
 * | gpt-4o-realtime-preview-2024-10-01 | $5 / $2.50 / $20 | $100 / $20 / $200 |
 * | gpt-4o-mini-realtime-preview | $0.60 / $0.30 / $2.40 | $10 / $0.30 / $20 |
 * | gpt-realtime | $4 / $0.40 / $16 | $32 / $0.40 / $64 |
 * | gpt-realtime-mini | $0.60 / $0.06 / $2.40 | $10 / $0.30 / $20 |
 *
 * A model without an entry bills its audio tokens as text tokens. Root may change these prices with
 * the AudioRatio (audio input, in text input tokens) and AudioCompletionRatio (audio output, in audio
 * input tokens) options, whose defaults are this table.
 */
export interface AudioRatios {
  /** An uncached audio input token, in text input tokens. */
  input: number;
  /** A cached audio input token, in text input tokens. */
  cachedInput: number;
  /** An audio output token, in text input tokens. */
  output: number;
}

const perTextInput = (textInput: number, audio: [number, number, number]): AudioRatios => ({
  input: audio[0] / textInput,
  cachedInput: audio[1] / textInput,
  output: audio[2] / textInput,
});

const GPT_4O_REALTIME = perTextInput(5, [40, 2.5, 80]);
const GPT_4O_MINI_REALTIME = perTextInput(0.6, [10, 0.3, 20]);
const GPT_REALTIME = perTextInput(4, [32, 0.4, 64]);
const GPT_REALTIME_MINI = perTextInput(0.6, [10, 0.3, 20]);

/** Exact names first, then the families' prefixes (a snapshot prices as its family). */
const EXACT: Readonly<Record<string, AudioRatios>> = {
  'gpt-4o-realtime-preview-2024-10-01': perTextInput(5, [100, 20, 200]),
};
const FAMILIES: ReadonlyArray<[string, AudioRatios]> = [
  ['gpt-4o-mini-realtime-preview', GPT_4O_MINI_REALTIME],
  ['gpt-4o-realtime-preview', GPT_4O_REALTIME],
  ['gpt-realtime-mini', GPT_REALTIME_MINI],
  ['gpt-realtime', GPT_REALTIME],
];

/** The audio prices of `model`; undefined when its audio tokens cost what its text tokens do. */
export function audioRatiosOf(model: string): AudioRatios | undefined {
  if (Object.hasOwn(EXACT, model)) return EXACT[model];
  return FAMILIES.find(([prefix]) => model.startsWith(prefix))?.[1];
}

/** The table's models of the ModelRatio default, with `part` of their audio prices. */
const tableOf = (part: (audio: AudioRatios) => number): RatioMap =>
  Object.fromEntries(
    Object.keys(DEFAULT_MODEL_RATIO).flatMap((model) => {
      const audio = audioRatiosOf(model);
      return audio ? [[model, part(audio)]] : [];
    }),
  );

export const DEFAULT_AUDIO_RATIO_JSON = toOptionJson(tableOf((audio) => audio.input));
export const DEFAULT_AUDIO_COMPLETION_RATIO_JSON = toOptionJson(
  tableOf((audio) => audio.output / audio.input),
);

/**
 * The audio prices the relay bills `model` with: AudioRatio and AudioCompletionRatio as configured
 * ("name(type)" first, then the name), else the table. Cached audio input keeps the table's price, or
 * for a model the table lacks, the audio input price × the model's cache read ratio. Undefined when
 * neither prices the model's audio (its audio tokens cost what text tokens do).
 */
export function resolveAudioRatios(
  model: string,
  channelType: number | undefined,
  configured: { audio: RatioMap; completion: RatioMap; cacheReadRatio: number },
): AudioRatios | undefined {
  const table = audioRatiosOf(model);
  const input = lookupInOrder(model, channelType, configured.audio, {}) ?? table?.input;
  if (input === undefined) return undefined;
  const completion =
    lookupInOrder(model, channelType, configured.completion, {}) ?? (table ? table.output / table.input : 1);
  return {
    input,
    cachedInput: table?.cachedInput ?? input * configured.cacheReadRatio,
    output: input * completion,
  };
}
