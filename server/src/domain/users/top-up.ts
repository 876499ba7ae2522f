import { LogType } from '@switchyard/contract/roles';
import { insertLog } from '../../db/repos/logs';
import { addUserQuota } from '../../db/repos/users';
import { inTransaction } from '../../db/transaction';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import { type Actor, canManageUser } from '../permissions';
import { quotaText } from '../quota-text';
import type { UserRecords } from './records';

/** Admin top-up: adds quota and writes a top-up log. */
export async function topUp(
  deps: { records: UserRecords; options: OptionsStore },
  actor: Actor,
  userId: number,
  quota: number,
  remark: string | undefined,
): Promise<void> {
  if (quota <= 0) throw new DomainError('topup_amount_not_positive');
  const target = await deps.records.getRow(userId);
  if (!canManageUser(actor, target.role)) throw new DomainError('user_topup_forbidden');
  const note = remark?.trim();
  await inTransaction(deps.records.db, async (tx) => {
    await addUserQuota(tx, target.id, quota);
    await insertLog(tx, {
      user_id: target.id,
      username: target.username,
      type: LogType.topup,
      quota,
      content: note || `Top-up of ${quotaText(deps.options, quota)} by ${actor.username}`,
      facts: { kind: 'top_up', quota, by: actor.username, ...(note ? { remark: note } : {}) },
    });
  });
}
