import { describe, expect, it } from 'vitest';
import { isHttpBaseUrl, trimBaseUrl } from './base-url';

describe('base URLs', () => {
  it('are trimmed and lose their trailing slashes', () => {
    expect(trimBaseUrl(' https://proxy.example.com/v1/ ')).toBe('https://proxy.example.com/v1');
    expect(trimBaseUrl('https://proxy.example.com///')).toBe('https://proxy.example.com');
    expect(trimBaseUrl('  ')).toBe('');
  });

  it.each([
    'https://api.example.com',
    'http://localhost:3000',
    'HTTPS://API.EXAMPLE.COM/v1',
    'http://10.0.0.1:8080/openai/v1',
    'http://[::1]:11434',
    'https://user:secret@proxy.example.com',
    'https://x.openai.azure.com/path?with=query',
  ])('accepts %s', (url) => expect(isHttpBaseUrl(url)).toBe(true));

  it.each([
    ['no scheme', 'proxy.example.com'],
    ['another scheme', 'ftp://files.example.com'],
    ['no host', 'https://'],
    ['a path where the host goes', 'https:///v1'],
    ['only a port', 'http://:8080'],
    ['only user info', 'https://user@'],
    ['empty brackets', 'http://[]:80'],
    ['whitespace in the host', 'https://exa mple.com'],
    ['whitespace in the path', 'https://example.com/v 1'],
    ['a scheme without slashes', 'https:example.com'],
  ])('refuses %s', (_, url) => expect(isHttpBaseUrl(url)).toBe(false));
});
