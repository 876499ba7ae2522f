import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo';

describe('boundedMemo', () => {
  it('computes a key once while it is kept, and forgets every key once `kept` are held', () => {
    const computed: string[] = [];
    const upper = boundedMemo(2, (key: string) => {
      computed.push(key);
      return key.toUpperCase();
    });
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(computed).toEqual(['a', 'b']);
    // A third key: the two kept are forgotten, so memory stays bounded whatever keys come.
    expect(upper('c')).toBe('C');
    expect(upper('a')).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });

  it('does not remember a key whose computation threw', () => {
    let calls = 0;
    const parse = boundedMemo(8, (address: string) => {
      calls++;
      return new URL(address).origin;
    });
    expect(() => parse('not a url')).toThrow();
    expect(() => parse('not a url')).toThrow();
    expect(calls).toBe(2);
    expect(parse('http://example.test/v1/chat')).toBe('http://example.test');
  });
});
