import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../src/on-first-use';

describe('onFirstUse', () => {
  it('loads once for every call, and only when first called', async () => {
    let loads = 0;
    const library = onFirstUse(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([library(), library()]);
    expect(await library()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('tries a failed load again on the next call', async () => {
    let loads = 0;
    const library = onFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new Error('not yet');
      return loads;
    });
    await expect(library()).rejects.toThrow('not yet');
    expect(await library()).toBe(2);
    expect(await library()).toBe(2);
  });
});
