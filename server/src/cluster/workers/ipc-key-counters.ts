import type { Counted, KeyCounters } from '../key-counters';
import type { CounterMethod } from './messages';
import type { PrimaryLink } from './primary-link';

const LET_THROUGH: Counted & { window: number } = { allowed: true, used: 0, resetMs: 0, window: -1 };

/**
 * A worker's key limits without Redis: the primary keeps the counts, so N workers let through what
 * one process would. When the primary cannot answer, the call goes through (as with Redis).
 */
export class IpcKeyCounters implements KeyCounters {
  constructor(
    private readonly link: PrimaryLink,
    private readonly onError: (error: unknown) => void,
  ) {}

  async #call<T>(method: CounterMethod, args: Array<string | number>, fallback: T): Promise<T> {
    try {
      return await this.link.call<T>({ op: 'counter', method, args });
    } catch (error) {
      this.onError(error);
      return fallback;
    }
  }

  takeRequest(key: string, limit: number): Promise<Counted> {
    return this.#call('takeRequest', [key, limit], LET_THROUGH);
  }

  takeTokens(key: string, amount: number, limit: number): Promise<Counted & { window: number }> {
    return this.#call('takeTokens', [key, amount, limit], LET_THROUGH);
  }

  adjustTokens(key: string, window: number, delta: number): Promise<void> {
    return this.#call('adjustTokens', [key, window, delta], undefined);
  }

  acquireSlot(key: string, limit: number, id: string): Promise<Counted> {
    return this.#call('acquireSlot', [key, limit, id], LET_THROUGH);
  }

  releaseSlot(key: string, id: string): Promise<void> {
    return this.#call('releaseSlot', [key, id], undefined);
  }

  async close(): Promise<void> {}
}
