import type { RedisTarget } from '../config/redis-target';
import { randomHex } from '../domain/random';
import { CODE_VALID_MS, type CodePurpose, type VerificationCodes } from '../domain/verification-codes';
import { connectRedis, type RedisClient } from './redis-connection';

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
 * key, which Redis expires after CODE_VALID_MS (by the Redis server's clock).
 */
export class RedisVerificationCodes implements VerificationCodes {
  readonly #redis: RedisClient;

  constructor(
    target: RedisTarget,
    onError: (error: unknown) => void = () => {},
    private readonly prefix = 'switchyard:code:',
  ) {
    this.#redis = connectRedis(target, { onError });
  }

  async issue(purpose: CodePurpose, email: string, length = 6): Promise<string> {
    const code = randomHex(length);
    await this.#redis.set(this.#key(purpose, email), code, 'PX', CODE_VALID_MS);
    return code;
  }

  async verify(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return (await this.#redis.get(this.#key(purpose, email))) === code;
  }

  async redeem(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return (await this.#redis.eval(REDEEM, 1, this.#key(purpose, email), code)) === 1;
  }

  async discard(purpose: CodePurpose, email: string): Promise<void> {
    await this.#redis.del(this.#key(purpose, email));
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #key(purpose: CodePurpose, email: string): string {
    return `${this.prefix}${purpose}:${email}`;
  }
}
