import type { RateLimiter } from '../rate-limiter';
import type { LimitRule } from './messages';
import type { PrimaryLink } from './primary-link';

/**
 * A worker's limiter without Redis: the primary keeps the counts of all workers, so N workers let
 * through what one process would, not N times as much. The relay (/v1) is never limited, so this
 * round trip is on /api calls and page loads only.
 */
export class IpcRateLimiter implements RateLimiter {
  constructor(
    private readonly link: PrimaryLink,
    private readonly rule: LimitRule,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** As with Redis: when the primary cannot answer, the call goes through rather than lock everybody out. */
  async allow(key: string): Promise<boolean> {
    try {
      return await this.link.call<boolean>({ op: 'allow', rule: this.rule, key });
    } catch (error) {
      this.onError(error);
      return true;
    }
  }

  async close(): Promise<void> {}
}
