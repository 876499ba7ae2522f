import { describe, expect, it } from 'vitest';
import { forbiddenTextPath, hasForbiddenCharacter, withoutForbiddenCharacters } from './plain-text';

describe('plain text', () => {
  it.each([
    ['a\u0000b', true],
    ['a\u0001b', true],
    ['a\u001bb', true],
    ['a\u007fb', true],
    ['a\ud800b', true],
    ['a\udc00', true],
    ['\udfffa', true],
    ['line one\nline two\r\n\tindented', false],
    ['emoji 😀 and 中文', false],
    ['é\u00a0non-breaking', false],
  ])('%j is forbidden: %s', (text, forbidden) => {
    expect(hasForbiddenCharacter(text)).toBe(forbidden);
  });

  it('strips what it forbids and keeps the rest', () => {
    expect(withoutForbiddenCharacters('a\u0000b\ud800c😀\n')).toBe('abc😀\n');
  });

  it('names the first field holding a forbidden character, nested or as a key', () => {
    expect(forbiddenTextPath({ username: 'ok', password: 'x\u0000' })).toBe('password');
    expect(forbiddenTextPath({ list: ['a', { name: 'b\ud800' }] })).toBe('list.1.name');
    expect(forbiddenTextPath({ map: { 'k\u0000': 'v' } })).toBe('map.k?');
    expect(forbiddenTextPath({ quota: 5, note: 'two\nlines', on: true, none: null })).toBeUndefined();
  });

  it('walks a value nested however deep without running out of stack', () => {
    const deep = JSON.parse(`${'{"a":['.repeat(50_000)}"x\\u0000"${']}'.repeat(50_000)}`);
    expect(forbiddenTextPath(deep)).toBe(Array(50_000).fill('a.0').join('.'));
  });
});
