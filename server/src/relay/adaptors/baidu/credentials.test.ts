import { describe, expect, it } from 'vitest';
import { RelayError } from '../../errors';
import { AccessTokens, type BaiduCredentials, credentialsOf, type ExchangedToken } from './credentials';

const DAY = 24 * 60 * 60;

/** A token cache on a hand-moved clock, whose exchanges resolve when the test says so. */
function setup(expiresIn = 30 * DAY) {
  let now = 1_000_000;
  const calls: BaiduCredentials[] = [];
  const waiting: Array<(value: ExchangedToken) => void> = [];
  const tokens = new AccessTokens(
    (_baseUrl, credentials) => {
      calls.push(credentials);
      return new Promise((resolve) => waiting.push(resolve));
    },
    () => now,
  );
  const answer = (token: string) => waiting.shift()?.({ token, expiresIn });
  return { tokens, calls, answer, advance: (ms: number) => (now += ms) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Baidu access tokens', () => {
  it('splits APIKey|SecretKey and refuses other shapes as a dead key', () => {
    expect(credentialsOf('ak|sk')).toEqual({ apiKey: 'ak', secretKey: 'sk' });
    for (const key of ['ak', 'ak|', '|sk', 'a|b|c']) {
      const error = (() => {
        try {
          credentialsOf(key);
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({ status: 401, origin: 'upstream' });
    }
  });

  it('shares one exchange between concurrent callers and keeps the token', async () => {
    const { tokens, calls, answer } = setup();
    const pending = [tokens.get('b', 'ak|sk'), tokens.get('b', 'ak|sk'), tokens.get('b', 'ak|sk')];
    await tick();
    expect(calls).toEqual([{ apiKey: 'ak', secretKey: 'sk' }]);
    answer('t1');
    expect(await Promise.all(pending)).toEqual(['t1', 't1', 't1']);
    expect(await tokens.get('b', 'ak|sk')).toBe('t1');
    expect(calls).toHaveLength(1);
  });

  it('keys the cache by base URL and key', async () => {
    const { tokens, calls, answer } = setup();
    const a = tokens.get('b', 'ak|sk');
    const b = tokens.get('b', 'ak2|sk2');
    const c = tokens.get('other', 'ak|sk');
    await tick();
    expect(calls).toHaveLength(3);
    answer('t1');
    answer('t2');
    answer('t3');
    expect(await Promise.all([a, b, c])).toEqual(['t1', 't2', 't3']);
  });

  it('refreshes in the background within the last hour, and waits for a new token once expired', async () => {
    const { tokens, calls, answer, advance } = setup();
    const first = tokens.get('b', 'ak|sk');
    await tick();
    answer('t1');
    expect(await first).toBe('t1');

    advance(30 * DAY * 1000 - 2 * 60 * 60 * 1000); // two hours left: used as is
    expect(await tokens.get('b', 'ak|sk')).toBe('t1');
    expect(calls).toHaveLength(1);

    advance(90 * 60 * 1000); // half an hour left: still answered, but a refresh starts
    expect(await tokens.get('b', 'ak|sk')).toBe('t1');
    expect(await tokens.get('b', 'ak|sk')).toBe('t1');
    expect(calls).toHaveLength(2);
    answer('t2');
    await tick();
    expect(await tokens.get('b', 'ak|sk')).toBe('t2');

    advance(31 * DAY * 1000); // long expired: the caller waits for the exchange
    const late = tokens.get('b', 'ak|sk');
    await tick();
    expect(calls).toHaveLength(3);
    answer('t3');
    expect(await late).toBe('t3');
  });

  it('does not remember a failed exchange, and forgets tokens on clear()', async () => {
    let fail = true;
    let count = 0;
    const tokens = new AccessTokens(async () => {
      count += 1;
      if (fail)
        throw RelayError.upstream(401, 'refused', { type: 'authentication_error', code: 'invalid_api_key' });
      return { token: `t${count}`, expiresIn: 30 * DAY };
    });
    await expect(tokens.get('b', 'ak|sk')).rejects.toMatchObject({ status: 401 });
    fail = false;
    expect(await tokens.get('b', 'ak|sk')).toBe('t2');
    expect(await tokens.get('b', 'ak|sk')).toBe('t2');
    tokens.clear();
    expect(await tokens.get('b', 'ak|sk')).toBe('t3');
  });
});
