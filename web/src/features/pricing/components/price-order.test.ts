import type { PriceRow } from '@switchyard/contract/pricing';
import { describe, expect, it } from 'vitest';
import { visiblePrices } from './price-order';

const row = (model: string, input: number, output?: number, group = 'default'): PriceRow => ({
  group,
  model,
  unit: output === undefined ? 'image' : 'tokens',
  listed: true,
  input,
  ...(output === undefined ? {} : { output }),
  varies: false,
});

const rows = [row('gpt-4o', 1250, 5000), row('dall-e-3', 20000), row('claude-3-haiku', 125, 625, 'vip')];

describe('the price list on screen', () => {
  it('finds models by a part of their name or group, in any case', () => {
    expect(visiblePrices(rows, 'GPT', '').map((r) => r.model)).toEqual(['gpt-4o']);
    expect(visiblePrices(rows, 'vip', '').map((r) => r.model)).toEqual(['claude-3-haiku']);
  });

  it('sorts by input or output price, highest first; models without an output price last', () => {
    expect(visiblePrices(rows, '', 'input').map((r) => r.model)).toEqual([
      'dall-e-3',
      'gpt-4o',
      'claude-3-haiku',
    ]);
    expect(visiblePrices(rows, '', 'output').map((r) => r.model)).toEqual([
      'gpt-4o',
      'claude-3-haiku',
      'dall-e-3',
    ]);
    expect(visiblePrices(rows, '', '')).toEqual(rows);
  });
});
