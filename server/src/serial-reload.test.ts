import { describe, expect, it } from 'vitest';
import { SerialReload } from './serial-reload';

/** A read the test answers: each one started is kept, to be answered in any order. */
function controlledReads() {
  const started: { answer: () => void; fail: (error: Error) => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const load = () =>
    new Promise<void>((resolve, reject) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const end = () => {
        running -= 1;
      };
      started.push({
        answer: () => {
          end();
          resolve();
        },
        fail: (error) => {
          end();
          reject(error);
        },
      });
    });
  return { load, started, mostAtOnce: () => mostAtOnce };
}

const settledYet = async (promise: Promise<unknown>) => {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  // Two turns of the microtask queue let a promise already resolved report it.
  await Promise.resolve();
  await Promise.resolve();
  return settled;
};

describe('SerialReload', () => {
  it('answers a call made while a read runs only after a read begun after the call', async () => {
    const reads = controlledReads();
    const reload = new SerialReload(reads.load);
    reload.invalidate();
    const first = reload.fresh();
    expect(reads.started).toHaveLength(1);

    reload.invalidate();
    const second = reload.fresh();
    // The second read waits for the first: started at once, the two could be answered in either order.
    expect(reads.started).toHaveLength(1);
    reads.started[0]?.answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads.started).toHaveLength(2);
    expect(await settledYet(second)).toBe(false);
    expect(reload.current).toBe(false);

    reads.started[1]?.answer();
    await Promise.all([first, second]);
    expect(reads.started).toHaveLength(2);
    expect(reads.mostAtOnce()).toBe(1);
    expect(reload.current).toBe(true);
    // Nothing asked for since: answered without a read.
    await reload.fresh();
    expect(reads.started).toHaveLength(2);
  });

  it('rejects the callers of a read that failed and reads again when asked', async () => {
    const reads = controlledReads();
    const reload = new SerialReload(reads.load);
    const failed = reload.fresh();
    reads.started[0]?.fail(new Error('database gone'));
    await expect(failed).rejects.toThrow('database gone');

    reload.invalidate();
    const again = reload.fresh();
    expect(reads.started).toHaveLength(2);
    reads.started[1]?.answer();
    await again;
    expect(reload.current).toBe(true);
  });
});
