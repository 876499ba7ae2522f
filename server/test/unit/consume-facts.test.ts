import { describe, expect, it } from 'vitest';
import { consumeFacts, type QuotedPrice } from '../../src/domain/billing/prices';

const price: QuotedPrice = {
  modelRatio: 2,
  groupRatio: 1,
  completionRatio: 4,
  cacheReadRatio: 0.1,
  cacheWriteRatio: 1.25,
  imageInputRatio: 1,
  ratio: 2,
  text: { perToken: 'per token', perUnit: 'per unit' },
  facts: { perToken: 'the price facts', perUnit: 'the unit facts' },
};
const usage = { prompt_tokens: 100, completion_tokens: 20 };

describe("consumeFacts: a call's token parts in its log", () => {
  it('shares the price’s facts when no part is above zero', () => {
    expect(consumeFacts(price, { ...usage, cached_tokens: 0, reasoning_tokens: 0 })).toBe('the price facts');
  });

  it('lists the parts above zero, in their order, with the ratios that priced them', () => {
    const facts = JSON.parse(consumeFacts(price, { ...usage, reasoning_tokens: 7, cached_tokens: 30 }));
    expect(facts.parts).toEqual({ cached: 30, reasoning: 7 });
    expect(Object.keys(facts.parts)).toEqual(['cached', 'reasoning']);
    expect(facts.cacheReadRatio).toBe(0.1);
  });

  it('leaves out a count that is not a number (NaN, a provider’s string)', () => {
    const odd = { ...usage, cached_tokens: Number.NaN, reasoning_tokens: 'many' as unknown as number };
    expect(consumeFacts(price, odd)).toBe('the price facts');
  });
});
