import { describe, expect, it } from 'vitest';
import { restartDelayMs } from './supervisor';

describe('restartDelayMs: a worker that keeps dying is not restarted in a busy loop', () => {
  it('replaces a worker that lived long at once, then doubles the wait per quick death up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 20].map(restartDelayMs)).toEqual([
      0, 250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });
});
