import { SEARCH_LIMIT } from '@switchyard/contract/envelope';
import type {
  CreateRedemptionInput,
  Redemption,
  UpdateRedemptionInput,
} from '@switchyard/contract/redemptions';
import { LogType, RedemptionStatus } from '@switchyard/contract/roles';
import { nowSeconds } from '../clock';
import type { Sql } from '../db/connect';
import { insertLog } from '../db/repos/logs';
import {
  claimRedemption,
  deleteRedemption,
  findRedemption,
  findRedemptionByKey,
  insertRedemption,
  listRedemptions,
  searchRedemptions,
  updateRedemption,
} from '../db/repos/redemptions';
import { addUserQuota } from '../db/repos/users';
import type { RedemptionRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { DomainError } from './errors';
import type { OptionsStore } from './options';
import type { Actor } from './permissions';
import { quotaText } from './quota-text';
import { randomHex } from './random';

export const toApiRedemption = (row: RedemptionRow): Redemption => ({
  id: row.id,
  user_id: row.user_id,
  key: row.key,
  status: row.status,
  name: row.name,
  quota: row.quota,
  created_time: row.created_time,
  redeemed_time: row.redeemed_time,
});

export class RedemptionService {
  constructor(private readonly deps: { db: Sql; options: OptionsStore }) {}

  async list(page: number): Promise<Redemption[]> {
    return (await listRedemptions(this.deps.db, page)).map(toApiRedemption);
  }

  async search(keyword: string): Promise<Redemption[]> {
    return (await searchRedemptions(this.deps.db, keyword.trim(), SEARCH_LIMIT)).map(toApiRedemption);
  }

  async get(id: number): Promise<Redemption> {
    return toApiRedemption(await this.#row(id));
  }

  /** Creates `count` codes in one transaction and answers their keys. */
  async create(actor: Actor, input: CreateRedemptionInput): Promise<string[]> {
    const now = nowSeconds();
    const keys = Array.from({ length: input.count }, () => randomHex(32));
    await inTransaction(this.deps.db, async (tx) => {
      for (const key of keys) {
        await insertRedemption(tx, {
          user_id: actor.id,
          key,
          status: RedemptionStatus.unused,
          name: input.name,
          quota: input.quota,
          created_time: now,
          redeemed_time: 0,
        });
      }
    });
    return keys;
  }

  async update(input: UpdateRedemptionInput): Promise<Redemption> {
    const row = await this.#row(input.id);
    if (row.status === RedemptionStatus.used) throw new DomainError('redemption_used_unchangeable');
    await updateRedemption(this.deps.db, row.id, { name: input.name, quota: input.quota });
    return this.get(row.id);
  }

  async setStatus(id: number, status: 1 | 2): Promise<Redemption> {
    const row = await this.#row(id);
    if (row.status === RedemptionStatus.used) throw new DomainError('redemption_used_no_toggle');
    await updateRedemption(this.deps.db, row.id, { status });
    return this.get(row.id);
  }

  async delete(id: number): Promise<void> {
    if (!(await deleteRedemption(this.deps.db, id))) throw new DomainError('redemption_not_found');
  }

  /**
   * Redeems a code into the caller's quota: the claim, the credit and the top-up log land together,
   * and a code is credited exactly once however many requests race for it.
   */
  async redeem(actor: Actor, key: string): Promise<number> {
    const { db, options } = this.deps;
    return inTransaction(db, async (tx) => {
      const code = await findRedemptionByKey(tx, key);
      if (!code) throw new DomainError('redemption_invalid');
      if (!(await claimRedemption(tx, key, actor.id, nowSeconds()))) {
        const current = await findRedemptionByKey(tx, key);
        throw new DomainError(
          current?.status === RedemptionStatus.disabled ? 'redemption_disabled' : 'redemption_used',
        );
      }
      await addUserQuota(tx, actor.id, code.quota);
      await insertLog(tx, {
        user_id: actor.id,
        username: actor.username,
        type: LogType.topup,
        quota: code.quota,
        content: `Redeemed a code for ${quotaText(options, code.quota)}`,
        facts: { kind: 'redemption', quota: code.quota },
      });
      return code.quota;
    });
  }

  async #row(id: number): Promise<RedemptionRow> {
    const row = await findRedemption(this.deps.db, id);
    if (!row) throw new DomainError('redemption_not_found');
    return row;
  }
}
