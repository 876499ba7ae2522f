import { describe, expect, it } from 'vitest';
import { ipInCidr, parseCidr, parseIp, parseSubnetList } from './subnet';

describe('subnets', () => {
  it.each([
    '10.0.0.0/8',
    '192.168.1.7/32',
    '0.0.0.0/0',
    '2001:db8::/32',
    '::1/128',
    'fe80::1:2:3:4/64',
    '::/0',
  ])('accepts %s', (cidr) => expect(parseCidr(cidr)).not.toBeNull());

  it.each([
    '10.0.0.0',
    '10.0.0.0/33',
    '256.0.0.0/8',
    '10.0.0/8',
    '2001:db8::/129',
    '1::2::3/64',
    'abc/8',
    '01.2.3.4/8',
    '',
  ])('refuses %j', (cidr) => expect(parseCidr(cidr)).toBeNull());

  it('matches addresses inside a block only', () => {
    const block = parseCidr('192.168.1.0/24')!;
    expect(ipInCidr(parseIp('192.168.1.200')!, block)).toBe(true);
    expect(ipInCidr(parseIp('192.168.2.1')!, block)).toBe(false);
    expect(ipInCidr(parseIp('::ffff:192.168.1.9')!, block)).toBe(true);
    const v6 = parseCidr('2001:db8::/32')!;
    expect(ipInCidr(parseIp('2001:db8:ffff::1')!, v6)).toBe(true);
    expect(ipInCidr(parseIp('2001:db9::1')!, v6)).toBe(false);
    expect(ipInCidr(parseIp('10.0.0.1')!, v6)).toBe(false);
  });

  it('names the first bad entry of a list', () => {
    expect(parseSubnetList('10.0.0.0/8, 172.16.0.0/12')).toMatchObject({
      cidrs: [{ prefix: 8 }, { prefix: 12 }],
    });
    expect(parseSubnetList('10.0.0.0/8,nonsense')).toEqual({
      error: '"nonsense" is not a valid CIDR block such as 192.168.1.0/24 or 2001:db8::/32',
      entry: 'nonsense',
    });
    expect(parseSubnetList('')).toEqual({ cidrs: [] });
  });
});
