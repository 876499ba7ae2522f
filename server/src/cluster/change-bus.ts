import { randomUUID } from 'node:crypto';
import type { RedisTarget } from '../config/redis-target';
import { channelName, connectRedis, type RedisClient } from './redis-connection';

/** Something one process changed that other processes hold in memory. */
export type Change =
  | { kind: 'options' }
  | { kind: 'channels' }
  | { kind: 'token'; key: string; id?: number }
  | { kind: 'user'; id: number }
  /** A process needs the quota credit others hold for this user (see Billing). */
  | { kind: 'credit'; userId: number };

export type ChangeHandler = (change: Change) => void | Promise<void>;

/**
 * Tells every process of the deployment what changed, so caches reload at once instead of at the
 * next sync period. Without Redis there is only this process, and handlers run for local changes.
 */
export interface ChangeBus {
  publish(change: Change): void;
  subscribe(handler: ChangeHandler): void;
  close(): Promise<void>;
}

export class LocalChangeBus implements ChangeBus {
  protected readonly handlers: ChangeHandler[] = [];

  publish(change: Change): void {
    this.deliver(change);
  }

  subscribe(handler: ChangeHandler): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {}

  protected deliver(change: Change): void {
    for (const handler of this.handlers) {
      Promise.resolve(handler(change)).catch(() => {
        // a failed reload is retried by the periodic sync
      });
    }
  }
}

/**
 * Changes travel over Redis pub/sub; each process applies its own at once and skips its echo. On a
 * Cluster this is classic (not sharded) pub/sub, which every node relays to the whole Cluster.
 */
export class RedisChangeBus extends LocalChangeBus {
  readonly #origin = randomUUID();
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  /** `switchyard:changes:db<N>` after the key prefix: one deployment's changes only. */
  readonly channel: string;

  constructor(target: RedisTarget, onError: (error: unknown) => void) {
    super();
    this.#publisher = connectRedis(target, { onError });
    this.#subscriber = connectRedis(target, { onError });
    this.channel = channelName(target, this.#publisher, 'switchyard:changes');
    this.#subscriber.on('message', (_channel: string, message: string) => {
      try {
        const { origin, change } = JSON.parse(message) as { origin: string; change: Change };
        if (origin !== this.#origin) this.deliver(change);
      } catch {
        // not ours
      }
    });
  }

  async ready(): Promise<void> {
    await this.#subscriber.subscribe(this.channel);
  }

  override publish(change: Change): void {
    this.deliver(change);
    this.#publisher.publish(this.channel, JSON.stringify({ origin: this.#origin, change })).catch(() => {
      // other processes catch up at the next sync period
    });
  }

  override async close(): Promise<void> {
    this.#subscriber.disconnect();
    this.#publisher.disconnect();
  }
}
