import { channelTypeById } from '@switchyard/contract/channel-types';
import {
  type Channel,
  type CreateChannelInput,
  channelListOrders,
  defaultOtherFor,
  type UpdateChannelInput,
} from '@switchyard/contract/channels';
import { listOrder, SEARCH_LIMIT } from '@switchyard/contract/envelope';
import { type ErrorDetail, isErrorCode, renderError } from '@switchyard/contract/render-error';
import { ChannelStatus } from '@switchyard/contract/roles';
import { splitList } from '@switchyard/contract/tokens';
import { nowSeconds } from '../clock';
import type { Sql } from '../db/connect';
import { type AbilityRow, deleteAbilitiesOf, replaceChannelAbilities } from '../db/repos/abilities';
import {
  allChannels,
  type ChannelChanges,
  deleteChannel,
  disabledChannelIds,
  findChannel,
  insertChannel,
  listChannels,
  searchChannels,
  updateChannel,
} from '../db/repos/channels';
import type { ChannelRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { checkRequiredConfig, composedKey, configWithoutSecrets, withStoredSecrets } from './channel-config';
import { bringsAllCredentials, steeringChange } from './channel-destination';
import { DomainError } from './errors';
import type { OptionsStore } from './options';
import { type Actor, canSeeChannelKeys } from './permissions';

/** Enough of a failure's text to say what went wrong, whatever the upstream sent. */
const TEST_ERROR_MAX = 500;

export function toApiChannel(row: ChannelRow, revealKey: boolean): Channel {
  return {
    id: row.id,
    type: row.type,
    key: revealKey ? row.key : '',
    status: row.status,
    name: row.name ?? '',
    weight: Number(row.weight ?? 0),
    created_time: row.created_time ?? 0,
    test_time: row.test_time ?? 0,
    response_time: row.response_time ?? 0,
    base_url: row.base_url ?? '',
    other: row.other ?? '',
    balance: Number(row.balance ?? 0),
    balance_updated_time: row.balance_updated_time ?? 0,
    models: row.models ?? '',
    group: row.group ?? '',
    used_quota: Number(row.used_quota ?? 0),
    model_mapping: row.model_mapping ?? '',
    priority: Number(row.priority ?? 0),
    // Credentials kept in the config (AWS's ak/sk, Vertex's key file) are shown to root only, as keys are.
    config: revealKey ? (row.config ?? '') : configWithoutSecrets(row.config),
    system_prompt: row.system_prompt ?? '',
    ...readTestFailure(row.test_error ?? ''),
  };
}

/**
 * A failed test as stored: its refusal code and params as JSON, so that the console says it in the
 * reader's language. Each param is cut to a readable length.
 */
function storedTestFailure(failure: ErrorDetail): string {
  const params = Object.fromEntries(
    Object.entries(failure.params ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' ? value.slice(0, TEST_ERROR_MAX) : value,
    ]),
  );
  return JSON.stringify({ code: failure.code, params });
}

/** The stored failure as the API shows it: English text, and its code and params when it has them. */
function readTestFailure(stored: string): Pick<Channel, 'test_error' | 'test_failure'> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return { test_error: stored };
  }
  const { code, params } = (parsed ?? {}) as Partial<ErrorDetail>;
  if (!isErrorCode(code)) return { test_error: stored };
  const detail: ErrorDetail = { code, params: params ?? {} };
  return { test_error: renderError(code, detail.params), test_failure: detail };
}

/** One row per group × model of the channel: the index the relay routes by. */
export function abilitiesOf(
  row: Pick<ChannelRow, 'id' | 'group' | 'models' | 'status' | 'priority'>,
): AbilityRow[] {
  const rows: AbilityRow[] = [];
  for (const group of splitList(row.group)) {
    for (const model of splitList(row.models)) {
      rows.push({
        group,
        model,
        channel_id: row.id,
        enabled: row.status === ChannelStatus.enabled,
        priority: Number(row.priority ?? 0),
      });
    }
  }
  return rows;
}

/** The fields that were given: an update writes only those. */
function definedFields<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

export interface ChannelServiceDeps {
  db: Sql;
  options: OptionsStore;
  /** Told after every committed write, so the relay's routing cache reloads. */
  onChanged: () => void;
}

export class ChannelService {
  constructor(private readonly deps: ChannelServiceDeps) {}

  async list(page: number, order: string | undefined, revealKeys: boolean): Promise<Channel[]> {
    return (await listChannels(this.deps.db, page, listOrder(channelListOrders, order))).map((row) =>
      toApiChannel(row, revealKeys),
    );
  }

  async search(keyword: string, revealKeys: boolean): Promise<Channel[]> {
    return (await searchChannels(this.deps.db, keyword.trim(), SEARCH_LIMIT)).map((row) =>
      toApiChannel(row, revealKeys),
    );
  }

  allRows(): Promise<ChannelRow[]> {
    return allChannels(this.deps.db);
  }

  async getRow(id: number): Promise<ChannelRow> {
    const row = await findChannel(this.deps.db, id);
    if (!row) throw new DomainError('channel_not_found');
    return row;
  }

  /** One channel per key line (batch creation), each with its abilities, all in one transaction. */
  async create(input: CreateChannelInput): Promise<number[]> {
    this.#checkGroupsExist(input.group);
    checkRequiredConfig(input.type, input.config);
    // A type whose credentials are config fields makes one channel, its key composed as one-api's console does.
    const keys = channelTypeById(input.type)?.keyInConfig
      ? [input.key.replaceAll('\n', '') || composedKey(input.type, input.config)]
      : input.key.split('\n');
    const ids = await inTransaction(this.deps.db, async (tx) => {
      const created: number[] = [];
      for (const key of keys) {
        const row = {
          type: input.type,
          key,
          status: ChannelStatus.enabled,
          name: input.name,
          weight: input.weight ?? 0,
          created_time: nowSeconds(),
          test_time: 0,
          response_time: 0,
          base_url: input.base_url ?? '',
          other: input.other,
          balance: 0,
          balance_updated_time: 0,
          models: input.models,
          group: input.group,
          used_quota: 0,
          model_mapping: input.model_mapping ?? '',
          priority: input.priority ?? 0,
          config: input.config ?? '',
          system_prompt: input.system_prompt ?? '',
        };
        const id = await insertChannel(tx, row);
        await replaceChannelAbilities(tx, id, abilitiesOf({ ...row, id }));
        created.push(id);
      }
      return created;
    });
    this.deps.onChanged();
    return ids;
  }

  /**
   * The whole form, or only status / priority / weight: the fields given (already checked) are written.
   * Whoever cannot read the channel's credentials cannot send them elsewhere either: changing where
   * they go takes root, or every credential of the type anew in the same request (channel-destination.ts).
   */
  async update(input: UpdateChannelInput, actor: Actor): Promise<ChannelRow> {
    const current = await this.getRow(input.id);
    if (input.group !== undefined) this.#checkGroupsExist(input.group);
    const { id: _id, ...given } = input;
    const changes: ChannelChanges = definedFields(given);
    const type = input.type ?? current.type;
    const keyInConfig = channelTypeById(type)?.keyInConfig === true;
    if (changes.config !== undefined) changes.config = withStoredSecrets(type, changes.config, current);
    if (input.type !== undefined || input.config !== undefined) {
      checkRequiredConfig(type, changes.config ?? current.config);
    }
    // What the request itself brought, not the config with the stored secrets put back.
    if (!canSeeChannelKeys(actor) && !bringsAllCredentials(type, input)) {
      const steered = steeringChange(type, current, changes);
      if (steered) throw new DomainError('channel_destination_needs_key', { field: steered });
    }
    if (keyInConfig && changes.key === undefined && changes.config !== undefined) {
      changes.key = composedKey(type, changes.config);
    }
    // The form's defaults for `other` (Azure's API version, Spark's version) apply on edit as on create.
    if (input.type !== undefined || input.other !== undefined) {
      const other = changes.other ?? current.other ?? '';
      if (other === '') {
        const fallback = defaultOtherFor(input.type ?? current.type);
        if (fallback) changes.other = fallback;
      }
    }
    return this.#write(current, changes);
  }

  /** Used by the list buttons and by channel health: status and abilities change together. */
  async setStatus(id: number, status: number): Promise<ChannelRow> {
    return this.#write(await this.getRow(id), { status });
  }

  /** A test's time, as one-api records it (failed tries too), and why it failed (none when it passed). */
  async recordTest(id: number, responseTimeMs: number, failure: ErrorDetail | undefined): Promise<void> {
    await updateChannel(this.deps.db, id, {
      response_time: responseTimeMs,
      test_time: nowSeconds(),
      test_error: failure ? storedTestFailure(failure) : '',
    });
  }

  async recordBalance(id: number, balance: number): Promise<void> {
    await updateChannel(this.deps.db, id, { balance, balance_updated_time: nowSeconds() });
  }

  async delete(id: number): Promise<void> {
    const deleted = await inTransaction(this.deps.db, async (tx) => {
      await deleteAbilitiesOf(tx, [id]);
      return deleteChannel(tx, id);
    });
    if (!deleted) throw new DomainError('channel_not_found');
    this.deps.onChanged();
  }

  /** Deletes every manually or automatically disabled channel with its abilities; answers how many. */
  async deleteDisabled(): Promise<number> {
    const count = await inTransaction(this.deps.db, async (tx) => {
      const ids = await disabledChannelIds(tx);
      await deleteAbilitiesOf(tx, ids);
      for (const id of ids) await deleteChannel(tx, id);
      return ids.length;
    });
    this.deps.onChanged();
    return count;
  }

  async #write(current: ChannelRow, changes: ChannelChanges): Promise<ChannelRow> {
    const updated = await inTransaction(this.deps.db, async (tx) => {
      await updateChannel(tx, current.id, changes);
      const row = (await findChannel(tx, current.id)) as ChannelRow;
      await replaceChannelAbilities(tx, row.id, abilitiesOf(row));
      return row;
    });
    this.deps.onChanged();
    return updated;
  }

  /** The one channel rule that needs data: every group has a ratio in the system settings. */
  #checkGroupsExist(groupList: string): void {
    const known = this.deps.options.groups();
    const unknown = splitList(groupList).find((group) => !known.includes(group));
    if (unknown) {
      throw new DomainError('channel_group_unknown', { group: unknown });
    }
  }
}
