import { channelTypeById } from '@switchyard/contract/channel-types';
import { ChannelStatus } from '@switchyard/contract/roles';
import type { Sql } from '../../db/connect';
import { withinDeadline } from '../../db/deadline';
import { allAbilities } from '../../db/repos/abilities';
import { allChannels } from '../../db/repos/channels';
import type { ChannelRow } from '../../db/schema';
import type { MaybePromise } from '../../maybe-promise';
import { SerialReload } from '../../serial-reload';

interface Tier {
  priority: number;
  channels: ChannelRow[];
}

type RoutingTable = Map<string, Map<string, Tier[]>>;

const NONE_TRIED: ReadonlySet<number> = new Set();

const routeKey = (group: string, model: string) => `${group}\u0000${model}`;

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** Weighted random choice; a tier whose weights are all 0 is chosen from uniformly. */
export function pickWeighted(channels: ChannelRow[], random = Math.random): ChannelRow | undefined {
  if (channels.length <= 1) return channels[0];
  const weightOf = (channel: ChannelRow) => Math.max(0, Number(channel.weight ?? 0));
  let total = 0;
  for (const channel of channels) total += weightOf(channel);
  if (total === 0) return channels[Math.floor(random() * channels.length)];
  let point = random() * total;
  for (const channel of channels) {
    point -= weightOf(channel);
    if (point < 0) return channel;
  }
  return channels[channels.length - 1];
}

/**
 * The routing index in memory: abilities grouped by (group, model) into priority tiers of enabled
 * channels. Rebuilt from the database when channels change and every sync period.
 */
export class ChannelRouter {
  #table: RoutingTable = new Map();
  #models = new Map<string, string[]>();
  /** (group, model) pairs that only automatically disabled channels serve: down for now, not unknown. */
  #down = new Set<string>();
  #channels = new Map<number, ChannelRow>();
  readonly #loads = new SerialReload(() => this.#load());

  constructor(
    private readonly db: Sql,
    /** How long a lookup may wait for the table to load (relayDatabaseWaitMs). */
    private readonly waitMs: number,
  ) {}

  /** Marks the table stale; the next lookup waits for a fresh one. */
  invalidate(): void {
    this.#loads.invalidate();
  }

  /** Waits (at most `waitMs`) for a fresh table; the load itself goes on for the next lookups. */
  #ready(): Promise<void> {
    return withinDeadline(this.#loads.fresh(), this.waitMs);
  }

  async #load(): Promise<void> {
    const [channels, abilities] = await Promise.all([allChannels(this.db), allAbilities(this.db)]);
    const byId = new Map(channels.map((channel) => [channel.id, channel]));
    const routes = new Map<string, Map<number, Tier>>();
    const models = new Map<string, Set<string>>();
    const down = new Set<string>();
    for (const ability of abilities) {
      const channel = byId.get(ability.channel_id);
      // A type that relays nothing (one-api's Proxy) is never picked, whatever models it lists.
      if (!channel || channelTypeById(channel.type)?.noModels) continue;
      const key = routeKey(ability.group, ability.model);
      if (channel.status === ChannelStatus.autoDisabled) down.add(key);
      if (!ability.enabled || channel.status !== ChannelStatus.enabled) continue;
      const tiers = getOrCreate(routes, key, () => new Map<number, Tier>());
      getOrCreate(tiers, ability.priority, () => ({
        priority: ability.priority,
        channels: [],
      })).channels.push(channel);
      getOrCreate(models, ability.group, () => new Set<string>()).add(ability.model);
    }
    const table: RoutingTable = new Map();
    for (const [key, tiers] of routes) {
      const [group = '', model = ''] = key.split('\u0000');
      getOrCreate(table, group, () => new Map<string, Tier[]>()).set(
        model,
        [...tiers.values()].sort((a, b) => b.priority - a.priority),
      );
    }
    this.#table = table;
    this.#down = down;
    this.#channels = byId;
    this.#models = new Map([...models].map(([group, names]) => [group, [...names].sort()]));
  }

  /**
   * The best channel for a group and model, skipping the ones that already failed this request: at
   * once from the table in memory, or once a stale one is read again (a promise).
   */
  select(
    group: string,
    model: string,
    exclude: ReadonlySet<number> = NONE_TRIED,
  ): MaybePromise<ChannelRow | undefined> {
    if (!this.#loads.current) return this.#ready().then(() => this.#pick(group, model, exclude));
    return this.#pick(group, model, exclude);
  }

  #pick(group: string, model: string, exclude: ReadonlySet<number>): ChannelRow | undefined {
    const tiers = this.#table.get(group)?.get(model) ?? [];
    for (const tier of tiers) {
      const candidates =
        exclude.size === 0 ? tier.channels : tier.channels.filter((channel) => !exclude.has(channel.id));
      if (candidates.length > 0) return pickWeighted(candidates);
    }
    return undefined;
  }

  /**
   * Why `select` found nothing for a group and model: `down` when channels serve it but the gateway
   * switched them all off after failures (they come back when a test passes), `unknown` when no
   * enabled or automatically disabled channel of the group lists it.
   */
  async whyNoChannel(group: string, model: string): Promise<'down' | 'unknown'> {
    if (!this.#loads.current) await this.#ready();
    return this.#down.has(routeKey(group, model)) ? 'down' : 'unknown';
  }

  async channel(id: number): Promise<ChannelRow | undefined> {
    if (!this.#loads.current) await this.#ready();
    return this.#channels.get(id);
  }

  /** Models that enabled channels serve to a group. */
  async modelsFor(group: string): Promise<string[]> {
    if (!this.#loads.current) await this.#ready();
    return this.#models.get(group) ?? [];
  }
}
