import { DEFAULT_MODEL_RATIO, lookupInOrder, type RatioMap, toOptionJson } from './model-ratios';

/**
 * Prompt-cache prices: the CacheReadRatio and CacheWriteRatio option defaults and their lookups.
 * Both are fractions of the model's input price (1 = no discount). Providers' list prices:
 * - OpenAI charges cached input half the input price on gpt-4o, gpt-4o-mini, o1 and o3-mini, a
 *   quarter on gpt-4.1, o3 and o4-mini, and nothing extra for writing the cache;
 * - Anthropic charges cache reads 0.1 and (5-minute) cache writes 1.25 of the input price;
 * - Gemini charges cached content a quarter of the input price;
 * - DeepSeek charges a cache hit a tenth of a miss.
 * Any other model pays full price for both (read 1, write 1).
 */

const HALF_PRICE_OPENAI = /^(gpt-4o|o1|o3-mini)/;
const QUARTER_PRICE_OPENAI = /^(gpt-4\.1|o3|o4-mini)/;
/** gpt-realtime and gpt-realtime-mini charge cached text input a tenth of the input price. */
const TENTH_PRICE_OPENAI = /^gpt-realtime/;
/** Claude 3 and later cache prompts (claude-2 and claude-instant do not). */
const isCachingClaude = (model: string): boolean =>
  model.startsWith('claude-') && !model.startsWith('claude-2') && !model.startsWith('claude-instant');
/** gpt-4o's first snapshot and chatgpt-4o-latest predate OpenAI's prompt caching. */
const UNCACHED_OPENAI = new Set(['gpt-4o-2024-05-13', 'chatgpt-4o-latest']);

/** The cache-read ratio from the model name alone; 1 when no rule applies. */
export function cacheReadRatioByRule(model: string): number {
  if (UNCACHED_OPENAI.has(model)) return 1;
  if (HALF_PRICE_OPENAI.test(model)) return 0.5;
  if (QUARTER_PRICE_OPENAI.test(model)) return 0.25;
  if (TENTH_PRICE_OPENAI.test(model)) return 0.1;
  if (isCachingClaude(model)) return 0.1;
  if (model.startsWith('gemini-1.5') || model.startsWith('gemini-2')) return 0.25;
  if (model === 'deepseek-chat' || model === 'deepseek-reasoner') return 0.1;
  return 1;
}

/** The cache-write ratio from the model name alone; 1 when no rule applies. */
export function cacheWriteRatioByRule(model: string): number {
  return isCachingClaude(model) ? 1.25 : 1;
}

/** The rule's ratio for every model of the ModelRatio default it discounts or surcharges. */
const byRule = (rule: (model: string) => number): RatioMap =>
  Object.fromEntries(
    Object.keys(DEFAULT_MODEL_RATIO)
      .map((model): [string, number] => [model, rule(model)])
      .filter(([, ratio]) => ratio !== 1),
  );

export const DEFAULT_CACHE_READ_RATIO_JSON = toOptionJson(byRule(cacheReadRatioByRule));
export const DEFAULT_CACHE_WRITE_RATIO_JSON = toOptionJson(byRule(cacheWriteRatioByRule));

/** The CacheReadRatio the relay bills with; `configured` is the parsed CacheReadRatio option. */
export function resolveCacheReadRatio(
  model: string,
  channelType?: number,
  configured: RatioMap = {},
): number {
  return lookupInOrder(model, channelType, configured, {}) ?? cacheReadRatioByRule(model);
}

/** The CacheWriteRatio the relay bills with; `configured` is the parsed CacheWriteRatio option. */
export function resolveCacheWriteRatio(
  model: string,
  channelType?: number,
  configured: RatioMap = {},
): number {
  return lookupInOrder(model, channelType, configured, {}) ?? cacheWriteRatioByRule(model);
}
