import { describe, expect, it } from 'vitest';
import { Passwords } from './passwords';

describe('Passwords', () => {
  it("writes bcrypt hashes of its cost that one-api reads, and checks any cost's", async () => {
    const passwords = new Passwords(10);
    const stored = await passwords.hash('s3cret');
    expect(stored).toMatch(/^\$2y\$10\$.{53}$/);
    expect(await passwords.matches('s3cret', stored)).toBe(true);
    expect(await passwords.matches('other', stored)).toBe(false);
    // A hash of another cost, as one-api's or one made before a change of PASSWORD_HASH_COST.
    expect(await passwords.matches('s3cret', await new Passwords(4).hash('s3cret'))).toBe(true);
    expect(await passwords.matches('s3cret', 'not bcrypt')).toBe(false);
  });

  it('compares a sign-in without an account against a hash of the same cost, which nothing matches', async () => {
    expect(await new Passwords(4).matchesNoAccount('')).toBe(false);
    expect(await new Passwords(4).matchesNoAccount('123456')).toBe(false);
  });
});
