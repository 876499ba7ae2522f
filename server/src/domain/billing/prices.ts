import { logFactsText } from '@switchyard/contract/log-facts';
import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import type { OptionsStore } from '../options';

export interface Price {
  modelRatio: number;
  groupRatio: number;
  completionRatio: number;
  /** modelRatio × groupRatio */
  ratio: number;
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

/** ceil((prompt + completion × completionRatio) × ratio), at least 1 when anything was used at a price. */
export function quotaFor(price: Price, promptTokens: number, completionTokens: number): number {
  if (promptTokens + completionTokens === 0) return 0;
  const quota = Math.ceil((promptTokens + completionTokens * price.completionRatio) * price.ratio);
  return price.ratio > 0 && quota <= 0 ? 1 : quota;
}

function priceFacts(price: Price, perUnit: boolean): string {
  const { modelRatio, groupRatio, completionRatio } = price;
  return logFactsText(
    perUnit
      ? { kind: 'consume', modelRatio, groupRatio }
      : { kind: 'consume', modelRatio, groupRatio, completionRatio },
  );
}

function describePrice(price: Price, perUnit: boolean): string {
  const parts = [`model ratio ${price.modelRatio.toFixed(2)}`, `group ratio ${price.groupRatio.toFixed(2)}`];
  if (!perUnit) parts.push(`completion ratio ${price.completionRatio.toFixed(2)}`);
  return parts.join(' × ');
}

/** Prices from the ratio options in force, cached until those options change. */
export class PriceList {
  readonly #prices = new Map<string, QuotedPrice>();
  #pricedWith: object[] = [];

  constructor(private readonly options: OptionsStore) {}

  price(model: string, group: string, channelType: number): QuotedPrice {
    const { options } = this;
    const tables = [
      options.ratios('ModelRatio'),
      options.ratios('GroupRatio'),
      options.ratios('CompletionRatio'),
    ];
    if (
      tables.some((table, index) => table !== this.#pricedWith[index]) ||
      this.#prices.size >= PRICE_CACHE_SIZE
    ) {
      this.#prices.clear();
      this.#pricedWith = tables;
    }
    const key = `${channelType}\u0000${group}\u0000${model}`;
    let price = this.#prices.get(key);
    if (!price) {
      const [modelRatios = {}, groupRatios = {}, completionRatios = {}] = tables;
      const modelRatio = resolveModelRatio(model, channelType, modelRatios);
      const groupRatio = groupRatios[group] ?? 1;
      const completionRatio = resolveCompletionRatio(model, channelType, completionRatios);
      const base = { modelRatio, groupRatio, completionRatio, ratio: modelRatio * groupRatio };
      price = {
        ...base,
        text: { perToken: describePrice(base, false), perUnit: describePrice(base, true) },
        facts: { perToken: priceFacts(base, false), perUnit: priceFacts(base, true) },
      };
      this.#prices.set(key, price);
    }
    return price;
  }
}
