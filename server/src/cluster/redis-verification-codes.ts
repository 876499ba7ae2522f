import type { RedisTarget } from '../config/redis-target';
import { DomainError } from '../domain/errors';
import { randomHex } from '../domain/random';
import { CODE_VALID_MS, type CodePurpose, type VerificationCodes } from '../domain/verification-codes';
import { answerWithin, connectRedis, type RedisClient } from './redis-connection';

/** Deletes the key only if it holds the code: a wrong guess must not spend somebody's link. */
const REDEEM = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

/**
 * Codes in Redis, so that a code mailed by one process works on any other. Each lives under its own
 * key, which Redis expires after CODE_VALID_MS (by the Redis server's clock). Without Redis there is
 * no code: every use fails closed, with `codes_unavailable` (503), within the command timeout.
 */
export class RedisVerificationCodes implements VerificationCodes {
  readonly #redis: RedisClient;

  constructor(
    target: RedisTarget,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly prefix = 'switchyard:code:',
  ) {
    this.#redis = connectRedis(target, { onError });
  }

  async issue(purpose: CodePurpose, email: string, length = 6): Promise<string> {
    const code = randomHex(length);
    await this.#ask(this.#redis.set(this.#key(purpose, email), code, 'PX', CODE_VALID_MS));
    return code;
  }

  async verify(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return (await this.#ask(this.#redis.get(this.#key(purpose, email)))) === code;
  }

  async redeem(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return (await this.#ask(this.#redis.eval(REDEEM, 1, this.#key(purpose, email), code))) === 1;
  }

  async discard(purpose: CodePurpose, email: string): Promise<void> {
    await this.#ask(this.#redis.del(this.#key(purpose, email)));
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  async #ask<T>(answer: Promise<T>): Promise<T> {
    try {
      return await answerWithin(answer);
    } catch (error) {
      this.onError(error);
      throw new DomainError('codes_unavailable', {}, 503);
    }
  }

  #key(purpose: CodePurpose, email: string): string {
    return `${this.prefix}${purpose}:${email}`;
  }
}
