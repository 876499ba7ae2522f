import { describe, expect, it } from 'vitest';
import { needsFetch, pageCount, pageSlice } from './paging';

describe('cached server pages', () => {
  it('offers one more page while the last cached page is full', () => {
    expect(pageCount(0, true)).toBe(1);
    expect(pageCount(7, true)).toBe(1);
    expect(pageCount(10, true)).toBe(2);
    expect(pageCount(20, true)).toBe(3);
    expect(pageCount(10, false)).toBe(1);
  });

  it('fetches only when the page lies beyond the cached rows', () => {
    expect(needsFetch(10, 1)).toBe(false);
    expect(needsFetch(10, 2)).toBe(true);
    expect(needsFetch(20, 2)).toBe(false);
  });

  it('slices 1-based pages of ten', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    expect(pageSlice(rows, 1)).toHaveLength(10);
    expect(pageSlice(rows, 3)).toEqual([20, 21, 22]);
  });
});
