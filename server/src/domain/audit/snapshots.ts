import { isOptionKey } from '@switchyard/contract/options';
import type { Sql } from '../../db/connect';
import { findChannel } from '../../db/repos/channels';
import { findRedemption } from '../../db/repos/redemptions';
import { findOwnToken } from '../../db/repos/tokens';
import { findUserById, findUserByUsername } from '../../db/repos/users';
import type { OptionsStore } from '../options';

/** What an audited change is about; `ownerId` scopes a key to its user, `name` finds a user or an option. */
export interface TargetRef {
  type: 'user' | 'token' | 'channel' | 'option' | 'redemption' | 'log';
  id?: number;
  name?: string;
  ownerId?: number;
}

/** A target's audited fields at one moment, unmasked (masking comes after comparing). */
export interface Snapshot {
  id: string;
  name: string;
  fields: Record<string, unknown>;
}

const pick = <T extends object, K extends keyof T>(row: T, keys: K[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((key) => [key, row[key]]));

async function userSnapshot(db: Sql, ref: TargetRef): Promise<Snapshot | undefined> {
  const row =
    ref.id !== undefined
      ? await findUserById(db, ref.id)
      : ref.name
        ? await findUserByUsername(db, ref.name)
        : undefined;
  if (!row) return undefined;
  const fields = pick(row, [
    'username',
    'display_name',
    'role',
    'status',
    'email',
    'group',
    'quota',
    'password',
    'access_token',
    'github_id',
    'wechat_id',
    'lark_id',
    'oidc_id',
    'oidc_subject',
  ]);
  return { id: String(row.id), name: row.username, fields };
}

async function tokenSnapshot(db: Sql, ref: TargetRef): Promise<Snapshot | undefined> {
  if (ref.id === undefined || ref.ownerId === undefined) return undefined;
  const row = await findOwnToken(db, ref.ownerId, ref.id);
  if (!row) return undefined;
  const fields = pick(row, [
    'user_id',
    'name',
    'key',
    'status',
    'expired_time',
    'remain_quota',
    'unlimited_quota',
    'models',
    'subnet',
  ]);
  return {
    id: String(row.id),
    name: row.name,
    fields: { ...fields, unlimited_quota: Boolean(row.unlimited_quota) },
  };
}

async function channelSnapshot(db: Sql, ref: TargetRef): Promise<Snapshot | undefined> {
  const row = ref.id === undefined ? undefined : await findChannel(db, ref.id);
  if (!row) return undefined;
  const fields = pick(row, [
    'type',
    'name',
    'key',
    'status',
    'weight',
    'base_url',
    'other',
    'models',
    'group',
    'model_mapping',
    'priority',
    'config',
    'system_prompt',
  ]);
  return { id: String(row.id), name: row.name, fields };
}

async function redemptionSnapshot(db: Sql, ref: TargetRef): Promise<Snapshot | undefined> {
  const row = ref.id === undefined ? undefined : await findRedemption(db, ref.id);
  if (!row) return undefined;
  return {
    id: String(row.id),
    name: row.name,
    fields: pick(row, ['name', 'key', 'status', 'quota', 'user_id']),
  };
}

/** Reads a target's audited fields now; undefined when it does not exist (yet, or any more). */
export async function loadSnapshot(
  db: Sql,
  options: OptionsStore,
  ref: TargetRef,
): Promise<Snapshot | undefined> {
  switch (ref.type) {
    case 'user':
      return userSnapshot(db, ref);
    case 'token':
      return tokenSnapshot(db, ref);
    case 'channel':
      return channelSnapshot(db, ref);
    case 'redemption':
      return redemptionSnapshot(db, ref);
    case 'option': {
      if (!ref.name || !isOptionKey(ref.name)) return undefined;
      return { id: ref.name, name: ref.name, fields: { [ref.name]: options.get(ref.name) } };
    }
    case 'log':
      return undefined;
  }
}
