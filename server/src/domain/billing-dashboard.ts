import { quotaAmount } from '@switchyard/contract/quota-format';
import type { Sql } from '../db/connect';
import { findTokenByKey } from '../db/repos/tokens';
import { findUserById } from '../db/repos/users';
import type { OptionsStore } from './options';
import { quotaDisplayOf } from './quota-text';

export interface BillingDashboardDeps {
  db: Sql;
  options: OptionsStore;
}

interface Spending {
  /** What the key may spend in all: what is left plus what it has spent. */
  granted: number;
  used: number;
  /** Unix seconds; 0 when the key never expires. */
  expiresAt: number;
}

/** The key an authenticated API client called with, and its owner. */
export interface DashboardKey {
  key: string;
  userId: number;
}

/**
 * one-api's billing dashboard for API-key clients (ChatGPT-style apps read a key's balance from it).
 * Amounts are US dollars when DisplayInCurrencyEnabled, else quota units.
 */
export class BillingDashboard {
  constructor(private readonly deps: BillingDashboardDeps) {}

  /** Undefined when the key or its owner is gone since it was authenticated. */
  async subscription(caller: DashboardKey) {
    const spending = await this.#spendingOf(caller);
    if (!spending) return undefined;
    const { granted, expiresAt } = spending;
    const amount = this.#amount(granted);
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: expiresAt,
    };
  }

  async usage(caller: DashboardKey) {
    const spending = await this.#spendingOf(caller);
    return spending && { object: 'list', total_usage: this.#amount(spending.used) * 100 };
  }

  #amount(quota: number): number {
    return quotaAmount(quota, quotaDisplayOf(this.deps.options));
  }

  /**
   * The numbers behind both endpoints, read fresh from the database (the identity cache may be
   * seconds old). With DisplayTokenStatEnabled (the default) they are the key's own; otherwise its
   * owner's. A key without a limit is bounded by its owner's quota: that plus what the key has spent,
   * so that a client's "limit − usage" is what the key can still spend.
   */
  async #spendingOf({ key, userId }: DashboardKey): Promise<Spending | undefined> {
    const { db, options } = this.deps;
    const [token, user] = await Promise.all([findTokenByKey(db, key), findUserById(db, userId)]);
    if (!token || !user) return undefined;
    const userQuota = Number(user.quota);
    if (!options.bool('DisplayTokenStatEnabled')) {
      const used = Number(user.used_quota);
      return { granted: userQuota + used, used, expiresAt: 0 };
    }
    const used = Number(token.used_quota);
    return {
      granted: (token.unlimited_quota ? userQuota : Number(token.remain_quota)) + used,
      used,
      expiresAt: Math.max(0, Number(token.expired_time)),
    };
  }
}
