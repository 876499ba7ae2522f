import { createRequire } from 'node:module';

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// The encodings are large tables: loaded on first use only, as most calls carry their own usage.
const load = (() => {
  const require = createRequire(import.meta.url);
  const cache = new Map<string, CountTokens>();
  return (encoding: 'cl100k_base' | 'o200k_base'): CountTokens => {
    let count = cache.get(encoding);
    if (!count) {
      count = (require(`gpt-tokenizer/cjs/encoding/${encoding}`) as { countTokens: CountTokens }).countTokens;
      cache.set(encoding, count);
    }
    return count;
  };
})();

// Special-token text in user input is counted as text, never refused.
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const APPROXIMATE_TOKENS_PER_BYTE = 0.38;
const IMAGE_LOW_DETAIL = 85;
// A 1024×1024 image at high detail (4 tiles): the image itself is never fetched to measure it.
const IMAGE_HIGH_DETAIL = 765;

const usesO200k = (model: string) => /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o\d)/.test(model);

export interface TokenCounter {
  text(text: string, model: string): number;
  messages(messages: unknown, model: string): number;
}

/** Counts tokens the way OpenAI bills them, or approximately from byte length when configured. */
export function createTokenCounter(approximate: () => boolean): TokenCounter {
  const text = (value: string, model: string): number => {
    if (!value) return 0;
    if (approximate()) return Math.floor(Buffer.byteLength(value) * APPROXIMATE_TOKENS_PER_BYTE);
    return load(usesO200k(model) ? 'o200k_base' : 'cl100k_base')(value, AS_TEXT);
  };

  const content = (value: unknown, model: string): number => {
    if (typeof value === 'string') return text(value, model);
    if (!Array.isArray(value)) return 0;
    let total = 0;
    for (const part of value as Array<Record<string, unknown>>) {
      if (part?.type === 'text' && typeof part.text === 'string') total += text(part.text, model);
      else if (part?.type === 'image_url') {
        const detail = (part.image_url as { detail?: string } | undefined)?.detail;
        total += detail === 'low' ? IMAGE_LOW_DETAIL : IMAGE_HIGH_DETAIL;
      }
    }
    return total;
  };

  return {
    text,
    messages(messages, model) {
      if (!Array.isArray(messages)) return 0;
      let total = 3;
      for (const message of messages as Array<Record<string, unknown>>) {
        total += 3 + content(message?.content, model);
        if (typeof message?.role === 'string') total += text(message.role, model);
        if (typeof message?.name === 'string') total += 1 + text(message.name, model);
      }
      return total;
    },
  };
}
