import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { atDeadline, cancelDeadline } from './deadlines';

describe('deadlines on the shared ticker', () => {
  it('each is called once, not before its time and within a tick after it; cancelled ones never', async () => {
    // Files share this worker: time the loop was held up by another's work counts on top of the tick.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const called: Array<{ ms: number; at: number }> = [];
    const bounds = [220, 30, 130, 30, 70];
    const deadlines = bounds.map((ms) =>
      atDeadline(started + ms, () => called.push({ ms, at: performance.now() - started })),
    );
    // Cancelled: the first, one in the middle of the list, the last.
    const cancelled = [deadlines[0], deadlines[2], deadlines[4]];
    for (const deadline of cancelled) cancelDeadline(deadline);
    cancelDeadline(deadlines[2]);
    const late = atDeadline(started + 160, () => called.push({ ms: 160, at: performance.now() - started }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    delay.disable();
    cancelDeadline(late);
    expect(called.map(({ ms }) => ms)).toEqual([30, 30, 160]);
    for (const { ms, at } of called) {
      expect(at).toBeGreaterThanOrEqual(ms);
      expect(at).toBeLessThan(ms + 50 + 30 + delay.max / 1e6);
    }
  });

  it('is called at once when its time has passed', () => {
    let calls = 0;
    atDeadline(performance.now() - 1, () => {
      calls += 1;
    });
    expect(calls).toBe(1);
  });
});

describe('a tick whose callbacks cancel, add or throw', () => {
  it('still calls every other due deadline in that tick, and none that was cancelled', async () => {
    const started = performance.now();
    const called: string[] = [];
    const thrown: unknown[] = [];
    const onError = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', onError);
    try {
      // Listed newest first: each callback below runs before the deadline added just before it.
      const farthest = atDeadline(started + 20, () => called.push('farthest'));
      const cancelledByNeighbour = atDeadline(started + 20, () => called.push('cancelled'));
      atDeadline(started + 20, () => {
        called.push('throws');
        throw new Error('a callback failed');
      });
      atDeadline(started + 20, () => {
        called.push('cancels its neighbour');
        cancelDeadline(cancelledByNeighbour);
        atDeadline(performance.now() + 10, () => called.push('added by a callback'));
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      cancelDeadline(farthest);
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(called).toEqual(['cancels its neighbour', 'throws', 'farthest', 'added by a callback']);
    expect(thrown).toEqual([new Error('a callback failed')]);
  });
});
