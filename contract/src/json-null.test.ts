import { describe, expect, it } from 'vitest';
import { withoutNullFields } from './json-null';

describe('withoutNullFields', () => {
  it('drops null properties at every depth and keeps everything else', () => {
    expect(
      withoutNullFields({
        username: 'x27187',
        aff_code: null,
        email: '',
        quota: 0,
        unlimited: false,
        nested: { a: null, b: 1 },
        list: [null, { c: null, d: 'd' }],
      }),
    ).toEqual({
      username: 'x27187',
      email: '',
      quota: 0,
      unlimited: false,
      nested: { b: 1 },
      list: [null, { d: 'd' }],
    });
  });

  it('keeps a __proto__ key as a plain property', () => {
    const result = withoutNullFields(JSON.parse('{"__proto__":{"x":1},"y":null}')) as object;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['__proto__']);
  });

  it('leaves values that are not objects alone', () => {
    expect(withoutNullFields(null)).toBeNull();
    expect(withoutNullFields('text')).toBe('text');
  });
});
