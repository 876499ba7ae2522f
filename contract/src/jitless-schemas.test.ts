import './jitless-schemas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('jitless-schemas', () => {
  it('makes zod, loaded after it, build parsers without eval', () => {
    expect(z.config().jitless).toBe(true);
  });
});
