import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';
import type { Config } from '../../config';
import { MemoryVerificationCodes } from '../../domain/verification-codes';
import { MemoryKeyCounters } from '../key-counters';
import { MemoryRateLimiter } from '../rate-limiter';
import type { LimitRule, SharedCall } from './messages';

/**
 * What the workers share without Redis, kept in the primary's memory: the counts of the rate limits
 * and the mailed codes. The primary answers each call from its maps at once (no awaiting in between),
 * so a code is redeemed once however many workers try it together.
 */
export class SharedState {
  readonly #limiters = new Map<LimitRule, MemoryRateLimiter>();
  readonly #codes = new MemoryVerificationCodes();
  /** Asks every worker for its metrics and adds them up; only with METRICS_TOKEN. */
  readonly #metrics: AggregatorRegistry<PrometheusContentType> | undefined;
  readonly #counters = new MemoryKeyCounters();

  constructor(
    config: Pick<Config, 'criticalRateLimit' | 'apiRateLimit' | 'webRateLimit'> & { metricsToken?: string },
  ) {
    this.#metrics = config.metricsToken ? new AggregatorRegistry() : undefined;
    const rules: Array<[LimitRule, { limit: number; windowSeconds: number }]> = [
      ['critical', config.criticalRateLimit],
      ['api', config.apiRateLimit],
      ['web', config.webRateLimit],
    ];
    for (const [rule, { limit, windowSeconds }] of rules) {
      if (limit > 0) this.#limiters.set(rule, new MemoryRateLimiter(limit, windowSeconds * 1000));
    }
  }

  answer(call: SharedCall): Promise<unknown> {
    switch (call.op) {
      case 'allow':
        return this.#limiters.get(call.rule)?.allow(call.key) ?? Promise.resolve(true);
      case 'issue':
        return this.#codes.issue(call.purpose, call.email, call.length);
      case 'verify':
        return this.#codes.verify(call.purpose, call.email, call.code);
      case 'redeem':
        return this.#codes.redeem(call.purpose, call.email, call.code);
      case 'discard':
        return this.#codes.discard(call.purpose, call.email);
      case 'metrics':
        return this.#metrics?.clusterMetrics() ?? Promise.resolve('');
      case 'counter': {
        const method = this.#counters[call.method] as (...args: Array<string | number>) => Promise<unknown>;
        return method.apply(this.#counters, call.args);
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#limiters.values()].map((limiter) => limiter.close()));
    await this.#counters.close();
  }
}
