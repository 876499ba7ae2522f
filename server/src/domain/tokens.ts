import { budgetPeriodEnd, budgetPeriodStart, budgetSpent } from '@switchyard/contract/budget-period';
import { allModelNames } from '@switchyard/contract/channel-types';
import { listOrder, SEARCH_LIMIT } from '@switchyard/contract/envelope';
import { type BudgetPeriod, RATE_LIMIT_FIELDS } from '@switchyard/contract/limits';
import { maskedKey, PLAYGROUND_MAX_KEYS, type PlaygroundKey } from '@switchyard/contract/playground';
import { TokenStatus } from '@switchyard/contract/roles';
import {
  type CreateTokenInput,
  NEVER_EXPIRES,
  splitList,
  type Token,
  tokenListOrders,
  type UpdateTokenInput,
} from '@switchyard/contract/tokens';
import { nowSeconds } from '../clock';
import type { Sql } from '../db/connect';
import { modelsForGroup } from '../db/repos/abilities';
import {
  deleteOwnToken,
  findOwnToken,
  insertToken,
  listOwnEnabledTokens,
  listOwnTokens,
  searchOwnTokens,
  type TokenChanges,
  updateOwnToken,
} from '../db/repos/tokens';
import type { TokenRow } from '../db/schema';
import { DomainError } from './errors';
import type { Actor } from './permissions';
import { randomAlphanumeric } from './random';
import type { UserService } from './users';

export const TOKEN_KEY_LENGTH = 48;

export const newTokenKey = (): string => randomAlphanumeric(TOKEN_KEY_LENGTH);

const isExpired = (row: Pick<TokenRow, 'expired_time'>, now: number): boolean =>
  row.expired_time !== NEVER_EXPIRES && row.expired_time <= now;
const isExhausted = (row: Pick<TokenRow, 'remain_quota' | 'unlimited_quota'>): boolean =>
  !row.unlimited_quota && row.remain_quota <= 0;

/** An enabled token past its expiry or out of quota shows as expired (3) or exhausted (4). */
export function effectiveTokenStatus(row: TokenRow, now = nowSeconds()): number {
  if (row.status !== TokenStatus.enabled) return row.status;
  if (isExpired(row, now)) return TokenStatus.expired;
  if (isExhausted(row)) return TokenStatus.exhausted;
  return row.status;
}

export function toApiToken(row: TokenRow, now = nowSeconds()): Token {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: effectiveTokenStatus(row, now),
    name: row.name,
    created_time: row.created_time,
    accessed_time: row.accessed_time,
    expired_time: row.expired_time,
    remain_quota: row.remain_quota,
    unlimited_quota: Boolean(row.unlimited_quota),
    used_quota: row.used_quota,
    models: row.models ?? '',
    subnet: row.subnet ?? '',
    rpm_limit: Number(row.rpm_limit ?? 0),
    tpm_limit: Number(row.tpm_limit ?? 0),
    concurrency_limit: Number(row.concurrency_limit ?? 0),
    ...apiBudget(row, now),
  };
}

function apiBudget(row: TokenRow, now: number) {
  const budget_quota = Number(row.budget_quota ?? 0);
  const period = budget_quota > 0 ? budgetPeriodEnd(row.budget_period, now) : undefined;
  if (period === undefined)
    return { budget_quota: 0, budget_period: '' as const, budget_used: 0, budget_reset_at: 0 };
  return {
    budget_quota,
    budget_period: row.budget_period as BudgetPeriod,
    budget_used: budgetSpent(row, now),
    budget_reset_at: period,
  };
}

export class TokenService {
  constructor(
    private readonly deps: {
      db: Sql;
      users: UserService;
      onTokenChanged?: (key: string, id: number) => void;
    },
  ) {}

  async list(actor: Actor, page: number, order: string): Promise<Token[]> {
    const now = nowSeconds();
    return (await listOwnTokens(this.deps.db, actor.id, page, listOrder(tokenListOrders, order))).map((row) =>
      toApiToken(row, now),
    );
  }

  async search(actor: Actor, keyword: string): Promise<Token[]> {
    const now = nowSeconds();
    return (await searchOwnTokens(this.deps.db, actor.id, keyword.trim(), SEARCH_LIMIT)).map((row) =>
      toApiToken(row, now),
    );
  }

  async get(actor: Actor, id: number): Promise<Token> {
    return toApiToken(await this.#own(actor, id));
  }

  /** The caller's enabled keys for the playground, masked. */
  async playgroundKeys(actor: Actor): Promise<PlaygroundKey[]> {
    const rows = await listOwnEnabledTokens(this.deps.db, actor.id, PLAYGROUND_MAX_KEYS);
    return rows.map((row) => ({ id: row.id, name: row.name, masked: maskedKey(row.key) }));
  }

  /** The whole key of one of the caller's tokens, for relaying with it server-side (the playground). */
  async ownKey(actor: Actor, id: number): Promise<string> {
    return (await this.#own(actor, id)).key;
  }

  async create(actor: Actor, input: CreateTokenInput): Promise<Token> {
    const fields = await this.#checkedFields(actor, input);
    const now = nowSeconds();
    const id = await insertToken(this.deps.db, {
      user_id: actor.id,
      key: newTokenKey(),
      status: TokenStatus.enabled,
      created_time: now,
      accessed_time: now,
      used_quota: 0,
      ...fields,
    });
    return this.get(actor, id);
  }

  async update(actor: Actor, input: UpdateTokenInput): Promise<Token> {
    await this.#own(actor, input.id);
    const fields = await this.#checkedFields(actor, input);
    await updateOwnToken(this.deps.db, actor.id, input.id, fields);
    return this.#changed(actor, input.id);
  }

  /** Enabling checks that the token can be used again; a stale status 3 or 4 is cleared by it. */
  async setStatus(actor: Actor, id: number, status: 1 | 2): Promise<Token> {
    const row = await this.#own(actor, id);
    if (status === TokenStatus.enabled) {
      const now = nowSeconds();
      if (isExpired(row, now)) {
        throw new DomainError('token_expired_cannot_enable');
      }
      if (isExhausted(row)) {
        throw new DomainError('token_exhausted_cannot_enable');
      }
    }
    await updateOwnToken(this.deps.db, actor.id, id, { status });
    return this.#changed(actor, id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const row = await this.#own(actor, id);
    await deleteOwnToken(this.deps.db, actor.id, id);
    this.deps.onTokenChanged?.(row.key, id);
  }

  async #changed(actor: Actor, id: number): Promise<Token> {
    const token = await this.get(actor, id);
    this.deps.onTokenChanged?.(token.key, id);
    return token;
  }

  async #own(actor: Actor, id: number): Promise<TokenRow> {
    const row = await findOwnToken(this.deps.db, actor.id, id);
    if (!row) throw new DomainError('token_not_found');
    return row;
  }

  /** The rules shared by create and update that the schema cannot check: a future expiry, known models. */
  async #checkedFields(actor: Actor, input: CreateTokenInput & { id?: number }) {
    if (input.expired_time !== NEVER_EXPIRES && input.expired_time <= nowSeconds()) {
      throw new DomainError('token_expiry_in_past');
    }
    const user = await this.deps.users.getRow(actor.id);
    const requested = splitList(input.models);
    if (requested.length > 0) {
      const known = new Set([
        ...allModelNames(),
        ...(await modelsForGroup(this.deps.db, user.group || 'default')),
      ]);
      const unknown = requested.find((model) => !known.has(model));
      if (unknown) throw new DomainError('token_model_unknown', { model: unknown });
    }
    const current = input.id === undefined ? undefined : await findOwnToken(this.deps.db, actor.id, input.id);
    const limits: Partial<Record<(typeof RATE_LIMIT_FIELDS)[number], number | null>> = {};
    for (const field of RATE_LIMIT_FIELDS) {
      const value = input[field];
      if (value === undefined) {
        if (!current) limits[field] = null;
        continue;
      }
      // A user's limits, set by an administrator, cap each of their keys: a key's own may only be lower.
      const cap = Number(user[field] ?? 0);
      if (cap > 0 && value > cap) throw new DomainError(`token_${field}_above_user`, { field, max: cap });
      limits[field] = value > 0 ? value : null;
    }
    const { name, expired_time, remain_quota, unlimited_quota, models, subnet } = input;
    return {
      name,
      expired_time,
      remain_quota,
      unlimited_quota,
      models,
      subnet,
      ...limits,
      ...budgetFields(input, current),
    };
  }
}

/** A new budget, or a changed period, starts counting now; an unchanged one keeps its count; absent, it stays. */
function budgetFields(input: CreateTokenInput, current: TokenRow | undefined): TokenChanges {
  const quota = input.budget_quota;
  if (quota === undefined && current) return {};
  if (!quota || !input.budget_period) {
    return { budget_quota: null, budget_period: null, budget_used: null, budget_start: null };
  }
  if (current && current.budget_period === input.budget_period && Number(current.budget_quota ?? 0) > 0) {
    return { budget_quota: quota, budget_period: input.budget_period };
  }
  return {
    budget_quota: quota,
    budget_period: input.budget_period,
    budget_used: 0,
    budget_start: budgetPeriodStart(input.budget_period, nowSeconds()) ?? null,
  };
}
