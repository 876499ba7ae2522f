import { describe, expect, it } from 'vitest';
import { createTokenInput, TOKEN_SUBNET_MAX } from './tokens';

const form = { name: 'ci' };

describe('the token input', () => {
  it('stores models and subnets as trimmed, unique entries joined by commas', () => {
    expect(
      createTokenInput.parse({ ...form, models: ' gpt-4o, o1,gpt-4o,', subnet: '10.0.0.0/8, ::1/128 ,' }),
    ).toMatchObject({
      models: 'gpt-4o,o1',
      subnet: '10.0.0.0/8,::1/128',
    });
    expect(createTokenInput.parse({ ...form, models: null, subnet: null })).toMatchObject({
      models: '',
      subnet: '',
    });
  });

  it('names the entry that is not a CIDR block', () => {
    const result = createTokenInput.safeParse({ ...form, subnet: '10.0.0.0/8, 300.1.1.1/24' });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['subnet'],
      code: 'custom',
      params: { rule: 'cidr', entry: '300.1.1.1/24' },
    });
  });

  it('measures the subnet list as stored, without the spaces typed between entries', () => {
    const entries = Array.from({ length: 12 }, (_, i) => `192.168.${100 + i}.128/25`);
    // 198 characters as typed, 189 once joined: it fits the column.
    expect(createTokenInput.safeParse({ ...form, subnet: entries.slice(0, 10).join(', ') }).success).toBe(
      true,
    );
    const tooLong = createTokenInput.safeParse({ ...form, subnet: entries.join(', ') });
    expect(tooLong.error?.issues[0]).toMatchObject({
      path: ['subnet'],
      code: 'too_big',
      message: `The subnet list must be at most ${TOKEN_SUBNET_MAX} characters`,
    });
  });
});
