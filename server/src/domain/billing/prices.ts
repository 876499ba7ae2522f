import { type AudioRatios, resolveAudioRatios } from '@switchyard/contract/audio-ratios';
import { resolveCacheReadRatio, resolveCacheWriteRatio } from '@switchyard/contract/cache-ratios';
import { resolveImageInputRatio } from '@switchyard/contract/image-input-ratios';
import { type LogFacts, type LogTokenParts, logFactsText } from '@switchyard/contract/log-facts';
import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import type { OptionsStore } from '../options';
import type { TokenUsage } from './token-usage';

export interface Price {
  modelRatio: number;
  groupRatio: number;
  completionRatio: number;
  /** Prompt tokens read from the provider's cache cost this much of a prompt token. */
  cacheReadRatio: number;
  /** Prompt tokens written to the provider's cache cost this much of a prompt token. */
  cacheWriteRatio: number;
  /** Image prompt tokens cost this much of a prompt token (GPT image models; 1 for the others). */
  imageInputRatio: number;
  /** modelRatio × groupRatio */
  ratio: number;
  /** Set for models that bill audio tokens apart from text (the Realtime API's): their prices. */
  audio?: AudioRatios;
}

/**
 * A price with its consumption-log texts and facts (JSON, see contract/log-facts), worked out once
 * per model, group and channel type.
 */
export interface QuotedPrice extends Price {
  text: { perToken: string; perUnit: string };
  facts: { perToken: string; perUnit: string };
}

/** Distinct (model, group, channel type) prices kept at most; the cache starts over past it. */
const PRICE_CACHE_SIZE = 10_000;

// Twelve significant digits drop binary noise (40 × 0.1 → 4.000000000000001) before rounding up.
const tidy = (value: number): number => Number(value.toPrecision(12));

/**
 * The one pricing rule of calls billed by tokens:
 * ceil(((prompt − cached − cache writes − images) + cached × cacheReadRatio + cache writes ×
 * cacheWriteRatio + images × imageInputRatio + completion × completionRatio) × modelRatio × groupRatio),
 * at least 1 when anything was used at a price. Cached, cache-write and image tokens are parts of the
 * prompt (never more than it): each prompt token is billed once, at its own rate. Reasoning tokens are
 * billed as ordinary ones, and audio tokens too unless the model has audio prices (audioAwareTokens).
 */
export function quotaFor(price: Price, usage: TokenUsage): number {
  const prompt = usage.prompt_tokens;
  const completion = usage.completion_tokens;
  if (prompt + completion === 0) return 0;
  const cached = Math.min(usage.cached_tokens ?? 0, prompt);
  const written = Math.min(usage.cache_write_tokens ?? 0, prompt - cached);
  const images = Math.min(usage.prompt_image_tokens ?? 0, prompt - cached - written);
  const tokens = price.audio
    ? audioAwareTokens(price, price.audio, usage, cached)
    : prompt -
      cached -
      written -
      images +
      cached * price.cacheReadRatio +
      written * price.cacheWriteRatio +
      images * price.imageInputRatio +
      completion * price.completionRatio;
  const quota = Math.ceil(tidy(tokens * price.ratio));
  return price.ratio > 0 && quota <= 0 ? 1 : quota;
}

/**
 * A call's tokens in text input tokens when audio has prices of its own: text and audio input, each
 * cached or not, and text and audio output, each part at its rate (the parts never exceed their whole).
 */
function audioAwareTokens(price: Price, audio: AudioRatios, usage: TokenUsage, cached: number): number {
  const audioIn = Math.min(usage.prompt_audio_tokens ?? 0, usage.prompt_tokens);
  const cachedAudio = Math.min(usage.cached_audio_tokens ?? 0, cached, audioIn);
  const cachedText = Math.min(cached - cachedAudio, usage.prompt_tokens - audioIn);
  const textIn = usage.prompt_tokens - audioIn - cachedText;
  const audioOut = Math.min(usage.completion_audio_tokens ?? 0, usage.completion_tokens);
  return (
    textIn +
    cachedText * price.cacheReadRatio +
    (audioIn - cachedAudio) * audio.input +
    cachedAudio * audio.cachedInput +
    (usage.completion_tokens - audioOut) * price.completionRatio +
    audioOut * audio.output
  );
}

/** Price multipliers by picture size (dall-e-3 HD doubles 1024² and adds half to the wide sizes). */
const PICTURE_SIZE_RATIOS: Record<string, Record<string, number>> = {
  'dall-e-2': { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 },
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 },
};

export const DEFAULT_PICTURE_SIZE = '1024x1024';

/** The sizes a model makes with their multipliers; undefined for a model that takes any size. */
export const pictureSizes = (model: string): Readonly<Record<string, number>> | undefined =>
  PICTURE_SIZE_RATIOS[model];

/** The one pricing rule of a picture priced per unit: floor(ratio × size multiplier × 1000). */
export function pictureQuota(price: Price, model: string, size: string, quality?: string): number {
  let sizeRatio = PICTURE_SIZE_RATIOS[model]?.[size] ?? 1;
  if (model === 'dall-e-3' && quality === 'hd') sizeRatio *= size === '1024x1024' ? 2 : 1.5;
  return Math.floor(price.ratio * sizeRatio * 1000);
}

function priceFacts(price: Price, perUnit: boolean): Extract<LogFacts, { kind: 'consume' }> {
  const { modelRatio, groupRatio, completionRatio } = price;
  return perUnit
    ? { kind: 'consume', modelRatio, groupRatio }
    : { kind: 'consume', modelRatio, groupRatio, completionRatio };
}

/** The reported parts of a call's tokens, as its log lists them; undefined when there are none. */
function tokenParts(usage: TokenUsage): LogTokenParts | undefined {
  const parts: LogTokenParts = {
    cached: usage.cached_tokens,
    cacheWrite: usage.cache_write_tokens,
    reasoning: usage.reasoning_tokens,
    audioInput: usage.prompt_audio_tokens,
    imageInput: usage.prompt_image_tokens,
    audioOutput: usage.completion_audio_tokens,
  };
  // Those above zero, in this order; none (most answers) without building anything more.
  let known: LogTokenParts | undefined;
  for (const name in parts) {
    const part = name as keyof LogTokenParts;
    const count = parts[part];
    // Not `count <= 0`: a count that is not a number (NaN, a provider's string) is left out too.
    if (!(count !== undefined && count > 0)) continue;
    known ??= {};
    known[part] = count;
  }
  return known;
}

/**
 * A token-priced call's log facts: the price's own (shared by every call at that price) when the
 * provider reported no parts, else with the parts and the cache ratios that priced them.
 */
export function consumeFacts(price: QuotedPrice, usage: TokenUsage): string {
  const parts = tokenParts(usage);
  if (!parts) return price.facts.perToken;
  return logFactsText({
    ...priceFacts(price, false),
    ...(parts.cached ? { cacheReadRatio: price.cacheReadRatio } : {}),
    ...(parts.cacheWrite ? { cacheWriteRatio: price.cacheWriteRatio } : {}),
    ...(parts.imageInput && price.imageInputRatio !== 1 ? { imageInputRatio: price.imageInputRatio } : {}),
    parts,
  });
}

/** Pictures a call priced per unit paid for: how many, at which size and quality. */
export type PicturesBilled = NonNullable<Extract<LogFacts, { kind: 'consume' }>['images']>;

/** A per-unit call's log facts: its price's own, with the pictures it paid for when it made some. */
export function perUnitFacts(price: QuotedPrice, images: PicturesBilled | undefined): string {
  return images ? logFactsText({ ...priceFacts(price, true), images }) : price.facts.perUnit;
}

function describePrice(price: Price, perUnit: boolean): string {
  const parts = [`model ratio ${price.modelRatio.toFixed(2)}`, `group ratio ${price.groupRatio.toFixed(2)}`];
  if (!perUnit) parts.push(`completion ratio ${price.completionRatio.toFixed(2)}`);
  if (!perUnit && price.audio) {
    parts.push(
      `audio input ratio ${price.audio.input.toFixed(2)}`,
      `audio output ratio ${price.audio.output.toFixed(2)}`,
    );
  }
  return parts.join(' × ');
}

/** Prices from the ratio options in force, cached until those options change. */
export class PriceList {
  /**
   * By model, group and channel type: Maps in one another rather than one keyed by a string joined
   * per call, which V8 would build, flatten and hash on every lookup (the model and the group keep
   * their hashes across the call's lookups).
   */
  readonly #prices = new Map<string, Map<string, Map<number, QuotedPrice>>>();
  #cached = 0;
  #pricedWith: object | undefined;

  constructor(private readonly options: OptionsStore) {}

  price(model: string, group: string, channelType: number): QuotedPrice {
    const { options } = this;
    const tables = options.ratioTables();
    if (tables !== this.#pricedWith || this.#cached >= PRICE_CACHE_SIZE) {
      this.#prices.clear();
      this.#cached = 0;
      this.#pricedWith = tables;
    }
    let byGroup = this.#prices.get(model);
    if (!byGroup) {
      byGroup = new Map();
      this.#prices.set(model, byGroup);
    }
    let byChannelType = byGroup.get(group);
    if (!byChannelType) {
      byChannelType = new Map();
      byGroup.set(group, byChannelType);
    }
    let price = byChannelType.get(channelType);
    if (!price) {
      const modelRatios = options.ratios('ModelRatio');
      const groupRatios = options.ratios('GroupRatio');
      const completionRatios = options.ratios('CompletionRatio');
      const readRatios = options.ratios('CacheReadRatio');
      const writeRatios = options.ratios('CacheWriteRatio');
      const modelRatio = resolveModelRatio(model, channelType, modelRatios);
      const groupRatio = groupRatios[group] ?? 1;
      const completionRatio = resolveCompletionRatio(model, channelType, completionRatios);
      const cacheReadRatio = resolveCacheReadRatio(model, channelType, readRatios);
      const base: Price = {
        modelRatio,
        groupRatio,
        completionRatio,
        cacheReadRatio,
        cacheWriteRatio: resolveCacheWriteRatio(model, channelType, writeRatios),
        imageInputRatio: resolveImageInputRatio(model),
        ratio: modelRatio * groupRatio,
      };
      const audio = resolveAudioRatios(model, channelType, {
        audio: options.ratios('AudioRatio'),
        completion: options.ratios('AudioCompletionRatio'),
        cacheReadRatio,
      });
      if (audio) base.audio = audio;
      price = {
        ...base,
        text: { perToken: describePrice(base, false), perUnit: describePrice(base, true) },
        facts: {
          perToken: logFactsText(priceFacts(base, false)),
          perUnit: logFactsText(priceFacts(base, true)),
        },
      };
      byChannelType.set(channelType, price);
      this.#cached += 1;
    }
    return price;
  }
}
