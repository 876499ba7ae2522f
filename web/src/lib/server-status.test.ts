import { DEFAULT_SERVER_ADDRESS } from '@switchyard/contract/status';
import { describe, expect, it } from 'vitest';
import { publicAddress } from './server-status';

describe('publicAddress', () => {
  const origin = 'https://console.example.com:8443';

  it('is the configured address, without trailing slashes', () => {
    expect(publicAddress('https://api.example.com/', origin)).toBe('https://api.example.com');
  });

  it("is the console's origin while the option is unset", () => {
    expect(publicAddress('', origin)).toBe(origin);
    expect(publicAddress(undefined, origin)).toBe(origin);
    expect(publicAddress('  ', origin)).toBe(origin);
  });

  it("is the console's origin for the default the server reports while the option is unset", () => {
    expect(publicAddress(DEFAULT_SERVER_ADDRESS, origin)).toBe(origin);
    expect(publicAddress(`${DEFAULT_SERVER_ADDRESS}/`, origin)).toBe(origin);
  });
});
