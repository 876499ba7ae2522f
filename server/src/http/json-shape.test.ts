import { describe, expect, it } from 'vitest';
import { checkJsonShape, JSON_SHAPE_LIMITS } from './json-shape';

const shapeOf = (text: string) => {
  try {
    return checkJsonShape(Buffer.from(text));
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('checkJsonShape', () => {
  it('counts structure outside strings only, escaped quotes and backslashes included', () => {
    const brackets = JSON.stringify({ s: '[[[[{{{{"\\\\"\\"'.repeat(200) });
    expect(shapeOf(brackets)).toBe(64 + 160 + 32);
    expect(shapeOf(JSON.stringify(['a\\', '[', '"]"']))).toBe(64 + 3 * 32);
  });

  it('refuses nesting beyond the limit, and no deeper than it', () => {
    const depth = JSON_SHAPE_LIMITS.depth;
    expect(shapeOf(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBeTypeOf('number');
    expect(shapeOf(`${'['.repeat(depth + 1)}${']'.repeat(depth + 1)}`)).toBe('json_too_deep');
    expect(shapeOf(`{"a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`)).toBe('json_too_deep');
  });

  it('refuses too many containers, members or values, stopping at the first one over', () => {
    expect(shapeOf(`[${Array(JSON_SHAPE_LIMITS.containers).fill('[]').join(',')}]`)).toBe(
      'json_too_many_values',
    );
    const members = Array.from({ length: JSON_SHAPE_LIMITS.members + 1 }, (_, i) => `"${i}":0`);
    expect(shapeOf(`{${members.join(',')}}`)).toBe('json_too_many_values');
    expect(
      shapeOf(
        `[${Array(JSON_SHAPE_LIMITS.values + 2)
          .fill('0')
          .join(',')}]`,
      ),
    ).toBe('json_too_many_values');
    expect(shapeOf(`[${Array(JSON_SHAPE_LIMITS.values).fill('0').join(',')}]`)).toBeTypeOf('number');
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(shapeOf('"never closed [[[')).toBe(0);
    expect(shapeOf('plain text')).toBe(0);
  });
});
