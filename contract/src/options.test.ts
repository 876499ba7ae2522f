import { describe, expect, it } from 'vitest';
import { normaliseOptionValue } from './options';

describe('option values', () => {
  it('are stored without the trailing slash of addresses and without repeated whitelist entries', () => {
    expect(normaliseOptionValue('ServerAddress', ' https://gw.example.com/ ')).toBe('https://gw.example.com');
    expect(normaliseOptionValue('WeChatServerAddress', 'https://wx.example.com//')).toBe(
      'https://wx.example.com',
    );
    expect(normaliseOptionValue('MessagePusherAddress', 'https://push.example.com/')).toBe(
      'https://push.example.com',
    );
    expect(normaliseOptionValue('EmailDomainWhitelist', 'a.com, B.com,a.com,b.com,')).toBe('a.com,b.com');
  });

  it('trim numbers and keep other text as typed', () => {
    expect(normaliseOptionValue('RetryTimes', ' 3 ')).toBe('3');
    expect(normaliseOptionValue('Notice', ' hello ')).toBe(' hello ');
  });
});
