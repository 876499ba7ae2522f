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
  | { kind: 'credit'; userId: number }
  /**
   * Changes may have been missed (the bus was down, or a publish failed): reload what is held in
   * memory and give back all credit held ahead.
   */
  | { kind: 'resync' };

export type ChangeHandler = (change: Change) => void | Promise<void>;

/**
 * Tells every process of the deployment what changed, so caches reload at once instead of at the
 * next sync period. Without Redis there is only this process, and handlers run for local changes.
 */
export interface ChangeBus {
  publish(change: Change): void;
  subscribe(handler: ChangeHandler): void;
  /**
   * Whether changes of other processes reach this one now. While not, credit held in memory must
   * not be spent: an edit it would outlive could not be heard.
   */
  readonly connected: boolean;
  close(): Promise<void>;
}

export class LocalChangeBus implements ChangeBus {
  protected readonly handlers: ChangeHandler[] = [];

  get connected(): boolean {
    return true;
  }

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

/** How often the subscriber's connection is checked: a PING, answered within the command timeout. */
export const HEARTBEAT_MS = 1000;
/** How long a starting process tries to subscribe before it gives up (and does not start). */
const READY_WITHIN_MS = 10_000;

/**
 * Changes travel over Redis pub/sub; each process applies its own at once and skips its echo. On a
 * Cluster this is classic (not sharded) pub/sub, which every node relays to the whole Cluster.
 *
 * Pub/sub delivers nothing that was published while a subscriber was away, so the bus watches its
 * connection: closed, or a PING unanswered (a partition leaves the connection open), and it is down
 * within HEARTBEAT_MS plus the command timeout. Going down and coming back, it delivers `resync`
 * here; a change it could not publish is followed by a `resync` for everyone once Redis answers.
 */
export class RedisChangeBus extends LocalChangeBus {
  readonly #origin = randomUUID();
  readonly #publisher: RedisClient;
  readonly #subscriber: RedisClient;
  /** `switchyard:changes:db<N>` after the key prefix: one deployment's changes only. */
  readonly channel: string;
  #up = false;
  /** Subscribed once (ready): before, a heartbeat proves nothing. */
  #subscribed = false;
  /** A publish failed: the others may have missed a change. */
  #missed = false;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    target: RedisTarget,
    onError: (error: unknown) => void,
    /** Told when the bus goes down (false) and comes back (true). */
    private readonly onConnected: (connected: boolean) => void = () => {},
  ) {
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
    this.#subscriber.on('close', () => this.#down());
    this.#heartbeat = setInterval(() => {
      this.#subscriber.ping().then(
        () => this.#answered(),
        () => this.#down(),
      );
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  override get connected(): boolean {
    return this.#up;
  }

  /** Subscribes; at start Redis gets more than one command's time (it may still be connecting). */
  async ready(): Promise<void> {
    const deadline = Date.now() + READY_WITHIN_MS;
    for (;;) {
      try {
        await this.#subscriber.subscribe(this.channel);
        break;
      } catch (error) {
        if (Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    this.#subscribed = true;
    this.#up = true;
  }

  override publish(change: Change): void {
    this.deliver(change);
    this.#send(change);
  }

  #send(change: Change): void {
    this.#publisher.publish(this.channel, JSON.stringify({ origin: this.#origin, change })).catch(() => {
      this.#missed = true;
    });
  }

  #down(): void {
    if (!this.#up) return;
    this.#up = false;
    this.onConnected(false);
    this.deliver({ kind: 'resync' });
  }

  /** Redis answered the heartbeat: on the same connection, after the subscription (renewed on reconnect). */
  #answered(): void {
    if (!this.#subscribed) return;
    if (!this.#up) {
      this.#up = true;
      this.onConnected(true);
      this.deliver({ kind: 'resync' });
    }
    if (this.#missed) {
      this.#missed = false;
      this.#send({ kind: 'resync' });
    }
  }

  override async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    // Closing is no outage: nothing to resync.
    this.#subscribed = false;
    this.#up = false;
    this.#subscriber.disconnect();
    this.#publisher.disconnect();
  }
}
