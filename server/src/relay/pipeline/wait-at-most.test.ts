import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { waitAtMost } from './wait-at-most';

describe('waitAtMost', () => {
  it('ends with the promise, whichever way it settles', async () => {
    const started = performance.now();
    await waitAtMost(new Promise((resolve) => setTimeout(resolve, 20)), 5_000);
    await waitAtMost(Promise.reject(new Error('no')), 5_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('ends about its bound after when the promise never settles, each wait at its own bound', async () => {
    const never = new Promise(() => {});
    // Files share this worker: time the loop was held up by another's work counts on top of the bound.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const ended: number[] = [];
    await Promise.all(
      [150, 400].map((ms) => waitAtMost(never, ms).then(() => ended.push(performance.now() - started))),
    );
    delay.disable();
    const heldUp = delay.max / 1e6;
    expect(ended[0]).toBeGreaterThanOrEqual(149);
    expect(ended[0]).toBeLessThan(150 + 100 + heldUp);
    expect(ended[1]).toBeGreaterThanOrEqual(399);
    expect(ended[1]).toBeLessThan(400 + 100 + heldUp);
  });
});
