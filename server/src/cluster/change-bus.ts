import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

const load = createRequire(import.meta.url);

/** Something one process changed that other processes hold in memory. */
export type Change =
  | { kind: 'options' }
  | { kind: 'channels' }
  | { kind: 'token'; key: string }
  | { kind: 'user'; id: number };

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

const CHANNEL = 'switchyard:changes';

/** Changes travel over Redis pub/sub; each process applies its own at once and skips its echo. */
export class RedisChangeBus extends LocalChangeBus {
  readonly #origin = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;

  constructor(url: string, onError: (error: unknown) => void) {
    super();
    // ioredis is loaded only when Redis is configured.
    const { Redis: RedisClient } = load('ioredis') as typeof import('ioredis');
    this.#publisher = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
    this.#subscriber = new RedisClient(url, { lazyConnect: false });
    this.#publisher.on('error', onError);
    this.#subscriber.on('error', onError);
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
    await this.#subscriber.subscribe(CHANNEL);
  }

  override publish(change: Change): void {
    this.deliver(change);
    this.#publisher.publish(CHANNEL, JSON.stringify({ origin: this.#origin, change })).catch(() => {
      // other processes catch up at the next sync period
    });
  }

  override async close(): Promise<void> {
    this.#subscriber.disconnect();
    this.#publisher.disconnect();
  }
}
