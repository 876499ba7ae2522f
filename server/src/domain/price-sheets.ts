import { isImageModel, isTokenPricedImageModel } from '@switchyard/contract/model-kinds';
import { listedModelRatio } from '@switchyard/contract/model-ratios';
import { PRICED_TOKENS, type PriceRow, type PriceSheet, type PriceUnit } from '@switchyard/contract/pricing';
import { splitList } from '@switchyard/contract/tokens';
import { DEFAULT_VIDEO_SIZE, isVideoModel, videoQuota } from '@switchyard/contract/videos';
import type { Sql } from '../db/connect';
import { servedModels } from '../db/repos/abilities';
import { findUserById } from '../db/repos/users';
import { type Billing, DEFAULT_PICTURE_SIZE, type Price, pictureQuota, quotaFor } from './billing';
import { DomainError } from './errors';
import type { OptionsStore } from './options';
import type { Actor } from './permissions';

const DEFAULT_GROUP = 'default';

function unitOf(model: string): PriceUnit {
  if (isVideoModel(model)) return 'second';
  return isImageModel(model) && !isTokenPricedImageModel(model) ? 'image' : 'tokens';
}

/** What a million tokens of each kind cost at `price`, by the rule that bills calls (quotaFor). */
function tokenPrices(price: Price): Pick<PriceRow, 'input' | 'output' | 'cacheRead' | 'cacheWrite'> {
  const tokens = PRICED_TOKENS;
  return {
    input: quotaFor(price, { prompt_tokens: tokens, completion_tokens: 0 }),
    output: quotaFor(price, { prompt_tokens: 0, completion_tokens: tokens }),
    cacheRead: quotaFor(price, { prompt_tokens: tokens, completion_tokens: 0, cached_tokens: tokens }),
    cacheWrite: quotaFor(price, { prompt_tokens: tokens, completion_tokens: 0, cache_write_tokens: tokens }),
  };
}

function pricesOf(
  price: Price,
  model: string,
  unit: PriceUnit,
): Omit<PriceRow, 'group' | 'model' | 'unit' | 'listed' | 'varies'> {
  if (unit === 'second') return { input: videoQuota(price.ratio, model, 1, DEFAULT_VIDEO_SIZE) };
  if (unit === 'image') return { input: pictureQuota(price, model, DEFAULT_PICTURE_SIZE) };
  return tokenPrices(price);
}

const higher = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? (a ?? b) : Math.max(a, b);

/**
 * The price list: each model a group's enabled channels serve, at the prices billing charges
 * (Billing.price and the billing rules, nothing worked out twice). A model that channels of several
 * types serve at different prices shows the highest and says that it varies.
 */
export class PriceSheets {
  constructor(private readonly deps: { db: Sql; billing: Billing; options: OptionsStore }) {}

  /** The prices of the signed-in user's group. */
  async forUser(actor: Actor): Promise<PriceSheet> {
    const user = await findUserById(this.deps.db, actor.id);
    return this.#sheet([user?.group || DEFAULT_GROUP]);
  }

  /** The prices visitors may read (PublicPricingEnabled): the groups of PublicPricingGroups, else the default one. */
  async forVisitors(): Promise<PriceSheet> {
    const { options } = this.deps;
    if (!options.bool('PublicPricingEnabled')) throw new DomainError('pricing_not_public', {}, 403);
    const exposed = splitList(options.get('PublicPricingGroups'));
    return this.#sheet(exposed.length > 0 ? exposed : [DEFAULT_GROUP]);
  }

  async #sheet(groups: string[]): Promise<PriceSheet> {
    const { billing, options } = this.deps;
    const modelRatios = options.ratios('ModelRatio');
    const rows = new Map<string, PriceRow>();
    for (const { group, model, type } of await servedModels(this.deps.db, groups)) {
      const unit = unitOf(model);
      const row: PriceRow = {
        group,
        model,
        unit,
        listed: listedModelRatio(model, type, modelRatios) !== undefined,
        ...pricesOf(billing.price(model, group, type), model, unit),
        varies: false,
      };
      const key = `${group}\u0000${model}`;
      const seen = rows.get(key);
      rows.set(key, seen ? merged(seen, row) : row);
    }
    const sorted = [...rows.values()].sort(
      (a, b) => a.group.localeCompare(b.group) || a.model.localeCompare(b.model),
    );
    return { groups, rows: sorted };
  }
}

function merged(a: PriceRow, b: PriceRow): PriceRow {
  const same =
    a.input === b.input &&
    a.output === b.output &&
    a.cacheRead === b.cacheRead &&
    a.cacheWrite === b.cacheWrite;
  if (same) return { ...a, listed: a.listed && b.listed };
  const row: PriceRow = {
    ...a,
    listed: a.listed && b.listed,
    input: Math.max(a.input, b.input),
    varies: true,
  };
  for (const key of ['output', 'cacheRead', 'cacheWrite'] as const) {
    const value = higher(a[key], b[key]);
    if (value !== undefined) row[key] = value;
  }
  return row;
}
