import { describe, expect, it } from 'vitest';
import {
  cacheReadRatioByRule,
  cacheWriteRatioByRule,
  DEFAULT_CACHE_READ_RATIO_JSON,
  DEFAULT_CACHE_WRITE_RATIO_JSON,
  resolveCacheReadRatio,
  resolveCacheWriteRatio,
} from './cache-ratios';
import { OPTION_SPECS, optionValueRefusal } from './options';

describe('cache ratios', () => {
  it.each([
    ['gpt-4o', 0.5],
    ['gpt-4o-mini-2024-07-18', 0.5],
    ['gpt-4o-2024-05-13', 1],
    ['chatgpt-4o-latest', 1],
    ['o1', 0.5],
    ['o1-mini', 0.5],
    ['o3-mini', 0.5],
    ['gpt-4.1', 0.25],
    ['gpt-4.1-nano', 0.25],
    ['o3', 0.25],
    ['o4-mini', 0.25],
    ['claude-3-5-sonnet-20241022', 0.1],
    ['claude-sonnet-4-20250514', 0.1],
    ['claude-2.1', 1],
    ['gemini-2.5-pro', 0.25],
    ['gemini-1.5-flash', 0.25],
    ['deepseek-chat', 0.1],
    ['deepseek-reasoner', 0.1],
    ['qwen-max', 1],
    ['gpt-3.5-turbo', 1],
  ])('reads %s from the cache at %d of the input price', (model, ratio) => {
    expect(cacheReadRatioByRule(model)).toBe(ratio);
    expect(resolveCacheReadRatio(model)).toBe(ratio);
  });

  it('writes Claude caches at 1.25 and every other model at the input price', () => {
    expect(cacheWriteRatioByRule('claude-3-haiku-20240307')).toBe(1.25);
    expect(cacheWriteRatioByRule('claude-opus-4-1')).toBe(1.25);
    for (const model of ['gpt-4o', 'gemini-2.0-flash', 'deepseek-chat', 'claude-instant-1.2']) {
      expect(cacheWriteRatioByRule(model)).toBe(1);
    }
  });

  it('lets the options win, "name(type)" first, as the other ratios do', () => {
    expect(resolveCacheReadRatio('gpt-4o', 1, { 'gpt-4o': 0.3 })).toBe(0.3);
    expect(resolveCacheReadRatio('gpt-4o', 3, { 'gpt-4o(3)': 0.7, 'gpt-4o': 0.3 })).toBe(0.7);
    expect(resolveCacheWriteRatio('claude-3-opus-20240229', 14, { 'claude-3-opus-20240229': 2 })).toBe(2);
    expect(resolveCacheWriteRatio('my-model', 1, {})).toBe(1);
  });

  it('ships defaults that are valid options and agree with the rules', () => {
    expect(OPTION_SPECS.CacheReadRatio.default).toBe(DEFAULT_CACHE_READ_RATIO_JSON);
    expect(optionValueRefusal('CacheReadRatio', DEFAULT_CACHE_READ_RATIO_JSON)).toBeNull();
    expect(optionValueRefusal('CacheWriteRatio', DEFAULT_CACHE_WRITE_RATIO_JSON)).toBeNull();
    const reads = JSON.parse(DEFAULT_CACHE_READ_RATIO_JSON) as Record<string, number>;
    expect(reads).toMatchObject({ 'gpt-4o': 0.5, 'claude-3-5-sonnet-20241022': 0.1, 'deepseek-chat': 0.1 });
    for (const [model, ratio] of Object.entries(reads)) expect(cacheReadRatioByRule(model)).toBe(ratio);
    const writes = JSON.parse(DEFAULT_CACHE_WRITE_RATIO_JSON) as Record<string, number>;
    expect(Object.values(writes).every((ratio) => ratio === 1.25)).toBe(true);
  });
});
