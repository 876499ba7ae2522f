import { describe, expect, it } from 'vitest';
import { internalRangeOf } from './internal-host';

describe('internalRangeOf', () => {
  it.each([
    ['http://127.0.0.1:3000', 'loopback'],
    ['https://localhost', 'loopback'],
    ['http://api.localhost./x', 'loopback'],
    ['http://2130706433', 'loopback'],
    ['http://0x7f.1', 'loopback'],
    ['http://0.0.0.0:8080', 'loopback'],
    ['http://[::1]:8080/path', 'loopback'],
    ['http://[::ffff:127.0.0.1]', 'loopback'],
    ['http://10.1.2.3', 'private'],
    ['http://172.16.0.1', 'private'],
    ['http://172.31.255.255', 'private'],
    ['https://192.168.1.10:8443', 'private'],
    ['http://100.64.0.1', 'private'],
    ['http://[fd12:3456::1]', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[fe80::1]', 'link-local'],
    ['192.168.0.5', 'private'],
    ['localhost:25', 'loopback'],
  ])('%s is %s', (address, range) => {
    expect(internalRangeOf(address)).toBe(range);
  });

  it.each([
    'https://wechat.example.com',
    'http://172.32.0.1',
    'http://8.8.8.8',
    'http://[2001:db8::1]',
    'http://localhost.example.com',
    '',
    'not a url at all',
  ])('%j is not internal', (address) => {
    expect(internalRangeOf(address)).toBeUndefined();
  });
});
