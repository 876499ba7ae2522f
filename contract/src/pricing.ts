/**
 * The price list: what each model costs in each group, in quota, as billing charges it. The console
 * shows the amounts in its currency (quota-format).
 */

/** How a model is charged: per token, per picture or per second of video. */
export type PriceUnit = 'tokens' | 'image' | 'second';

/** Tokens a token price is quoted for. */
export const PRICED_TOKENS = 1_000_000;

export interface PriceRow {
  group: string;
  model: string;
  unit: PriceUnit;
  /** False when no ratio is set for the model: it is billed at the ratio of unknown models. */
  listed: boolean;
  /** Quota per 1M input tokens, per picture (at the default size) or per second of video. */
  input: number;
  /** Quota per 1M output, cache-read and cache-write tokens (token prices only). */
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** The channels serving the model price it differently (by channel type): the highest is shown. */
  varies: boolean;
}

export interface PriceSheet {
  groups: string[];
  rows: PriceRow[];
}
