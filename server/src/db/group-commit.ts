import type { MaybePromise } from '../maybe-promise';

interface Waiter<R> {
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Entry<T, R> {
  item: T;
  waiter: Waiter<R> | undefined;
}

/**
 * Group commit: writes queued while one batch is being committed go out together in the next one.
 * A write is committed once the event loop has handled the I/O at hand (`setImmediate`), so the
 * requests that arrived together share one transaction even when the commit itself is synchronous;
 * or after `lingerMs` when it may wait (write-behind: under steady traffic that turns many small
 * transactions into one). `commit` answers one result per item, in order: at once where the
 * database answers synchronously (SQLite), and then the batch's waiters are told without an await.
 */
export class GroupCommit<T, R = void> {
  #queue: Array<Entry<T, R>> = [];
  #running: Promise<void> | undefined;
  /** Cancels the scheduled start of the next drain, when one is scheduled. */
  #cancelWait: (() => void) | undefined;
  #idle: Array<() => void> = [];
  #committing: T[] = [];

  constructor(
    /** Commits a batch; `attempt` counts from 0 and grows while the same batch is retried. */
    private readonly commit: (items: T[], attempt: number) => MaybePromise<R[]>,
    private readonly options: {
      maxBatch?: number;
      lingerMs?: number;
      /**
       * When set, a batch that fails is committed again after this delay, the same batch before
       * anything queued after it, until it lands: nobody's result is ever an error.
       */
      retryDelayMs?: (attempt: number) => number;
      /** Told when a batch failed to commit (with `retryDelayMs`, or when nobody awaits its items). */
      onError?: (error: unknown) => void;
    } = {},
  ) {}

  /** Items queued or being committed. */
  get pending(): T[] {
    return [...this.#committing, ...this.#queue.map((entry) => entry.item)];
  }

  /** How many items are queued or being committed (metrics: no copy made). */
  get depth(): number {
    return this.#committing.length + this.#queue.length;
  }

  get #maxBatch(): number {
    return this.options.maxBatch ?? 500;
  }

  /** Queues an item and answers its result once its batch is committed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => this.#push(item, { resolve, reject }));
  }

  /** Queues an item nobody waits for (write-behind); see `drained`. */
  enqueue(item: T): void {
    this.#push(item, undefined);
  }

  /** Resolves once everything queued so far is committed (tests, shutdown). */
  drained(): Promise<void> {
    if (this.#queue.length === 0 && !this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #push(item: T, waiter: Waiter<R> | undefined): void {
    this.#queue.push({ item, waiter });
    if (this.#running) return;
    const lingerMs = this.options.lingerMs ?? 0;
    if (this.#queue.length >= this.#maxBatch) this.#start();
    else if (this.#cancelWait) return;
    else if (lingerMs > 0) {
      const timer = setTimeout(() => this.#start(), lingerMs);
      this.#cancelWait = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(() => this.#start());
      this.#cancelWait = () => clearImmediate(immediate);
    }
  }

  #start(): void {
    this.#cancelWait?.();
    this.#cancelWait = undefined;
    if (!this.#running) this.#drainNow();
  }

  /**
   * Commits batch after batch for as long as the commits answer at once; the first that waits or
   * fails is followed by `#drainLater` (its retries, then the rest of the queue).
   */
  #drainNow(): void {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      const items = batch.map((entry) => entry.item);
      this.#committing = items;
      let results: MaybePromise<R[]>;
      try {
        results = this.commit(items, 0);
      } catch (error) {
        results = Promise.reject(error);
      }
      if (results instanceof Promise) {
        this.#running = this.#drainLater(batch, results);
        return;
      }
      for (let index = 0; index < batch.length; index++) batch[index]?.waiter?.resolve(results[index] as R);
    }
    this.#done();
  }

  async #drainLater(batch: Array<Entry<T, R>>, first: Promise<R[]>): Promise<void> {
    try {
      let committing: Promise<R[]> | undefined = first;
      for (;;) {
        const items = batch.map((entry) => entry.item);
        this.#committing = items;
        try {
          const results = await this.#commitWithRetries(items, committing);
          for (const [index, entry] of batch.entries()) entry.waiter?.resolve(results[index] as R);
        } catch (error) {
          let unawaited = false;
          for (const entry of batch) {
            if (entry.waiter) entry.waiter.reject(error);
            else unawaited = true;
          }
          if (unawaited) this.options.onError?.(error);
        }
        committing = undefined;
        if (this.#queue.length === 0) break;
        batch = this.#queue.splice(0, this.#maxBatch);
      }
    } finally {
      this.#done();
    }
  }

  #done(): void {
    this.#committing = [];
    this.#running = undefined;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Commits `items` until it lands (with `retryDelayMs`); `first` is its first attempt when already made. */
  async #commitWithRetries(items: T[], first?: Promise<R[]>): Promise<R[]> {
    const { retryDelayMs, onError } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await (attempt === 0 && first ? first : this.commit(items, attempt));
      } catch (error) {
        if (!retryDelayMs) throw error;
        onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
      }
    }
  }
}
