import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit';

/** A commit the test ends by hand: each call waits until the test resolves or rejects it. */
function manualCommits() {
  const calls: Array<{
    items: number[];
    attempt: number;
    land: () => void;
    fail: (error: unknown) => void;
  }> = [];
  const commit = (items: number[], attempt: number) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        items: [...items],
        attempt,
        land: () => resolve(items.map((item) => `done ${item}`)),
        fail: reject,
      });
    });
  /** Resolves once the `count`th commit has started. */
  const started = (count: number) => vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(count));
  return { calls, commit, started };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('GroupCommit', () => {
  it('commits what arrived together in one batch, and what arrived meanwhile in the next, in order', async () => {
    const { calls, commit, started } = manualCommits();
    const group = new GroupCommit(commit);
    const first = [group.add(1), group.add(2), group.add(3)];
    await started(1);
    expect(calls[0]?.items).toEqual([1, 2, 3]);
    const second = [group.add(4), group.add(5)];
    expect(group.pending).toEqual([1, 2, 3, 4, 5]);
    expect(group.depth).toBe(5);
    calls[0]?.land();
    expect(await Promise.all(first)).toEqual(['done 1', 'done 2', 'done 3']);
    await started(2);
    expect(calls[1]?.items).toEqual([4, 5]);
    calls[1]?.land();
    expect(await Promise.all(second)).toEqual(['done 4', 'done 5']);
    await group.drained();
    expect(group.depth).toBe(0);
  });

  it('splits a queue longer than maxBatch into batches of at most that many, in order', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit(
      async (items: number[]) => {
        batches.push([...items]);
        return items.map((item) => item * 10);
      },
      { maxBatch: 2 },
    );
    const results = await Promise.all([1, 2, 3, 4, 5].map((item) => group.add(item)));
    expect(results).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('without retries, a failed batch rejects each of its callers; the next batch still goes', async () => {
    const { calls, commit, started } = manualCommits();
    const told: unknown[] = [];
    const group = new GroupCommit(commit, { onError: (error) => told.push(error) });
    const failing = [group.add(1), group.add(2)];
    await started(1);
    const next = group.add(3);
    const refused = new Error('deadlock');
    calls[0]?.fail(refused);
    for (const result of failing) await expect(result).rejects.toBe(refused);
    // Everybody awaiting the batch heard of it: nothing for onError.
    expect(told).toEqual([]);
    await started(2);
    calls[1]?.land();
    expect(await next).toBe('done 3');
  });

  it('tells onError of a failed batch that holds items nobody awaits', async () => {
    const { calls, commit, started } = manualCommits();
    const told: unknown[] = [];
    const group = new GroupCommit(commit, { onError: (error) => told.push(error) });
    group.enqueue(1);
    await started(1);
    const lost = new Error('connection lost');
    calls[0]?.fail(lost);
    await group.drained();
    expect(told).toEqual([lost]);
  });

  it('with retries, commits the same batch again until it lands, before anything queued after it', async () => {
    const { calls, commit, started } = manualCommits();
    const told: unknown[] = [];
    const delays: number[] = [];
    const group = new GroupCommit(commit, {
      retryDelayMs: (attempt) => {
        delays.push(attempt);
        return 0;
      },
      onError: (error) => told.push(error),
    });
    const first = group.add(1);
    await started(1);
    const later = group.add(2);
    calls[0]?.fail(new Error('down'));
    await started(2);
    calls[1]?.fail(new Error('still down'));
    await started(3);
    calls[2]?.land();
    expect(await first).toBe('done 1');
    await started(4);
    calls[3]?.land();
    expect(await later).toBe('done 2');
    expect(calls.map(({ items, attempt }) => ({ items, attempt }))).toEqual([
      { items: [1], attempt: 0 },
      { items: [1], attempt: 1 },
      { items: [1], attempt: 2 },
      { items: [2], attempt: 0 },
    ]);
    expect(delays).toEqual([0, 1]);
    expect(told.map((error) => (error as Error).message)).toEqual(['down', 'still down']);
  });

  it('waits lingerMs before a batch (write-behind), unless maxBatch items are queued', async () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const group = new GroupCommit(
      async (items: number[]) => {
        batches.push([...items]);
        return items.map(() => undefined);
      },
      { lingerMs: 50, maxBatch: 3 },
    );
    group.enqueue(1);
    group.enqueue(2);
    await vi.advanceTimersByTimeAsync(49);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1, 2]]);
    group.enqueue(3);
    group.enqueue(4);
    group.enqueue(5);
    // The third item fills a batch: it goes at once, not 50 ms later.
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await group.drained();
  });

  it('drained resolves at once when idle, and once the last batch landed otherwise', async () => {
    const { calls, commit, started } = manualCommits();
    const group = new GroupCommit(commit);
    await group.drained();
    group.enqueue(1);
    let drained = false;
    const waiting = group.drained().then(() => {
      drained = true;
    });
    await started(1);
    expect(drained).toBe(false);
    calls[0]?.land();
    await waiting;
    expect(group.pending).toEqual([]);
  });

  describe('a commit that answers at once (the embedded database)', () => {
    it("tells the batch its results in the commit's turn, and what a commit queues goes next", async () => {
      const batches: number[][] = [];
      const told: string[] = [];
      const group: GroupCommit<number, number> = new GroupCommit((items: number[]) => {
        batches.push([...items]);
        // Queued while a batch commits (a give-back found by its caller): the next batch.
        if (items.includes(1)) void group.add(9).then((result) => told.push(`9 → ${result}`));
        return items.map((item) => item * 10);
      });
      const first = [group.add(1), group.add(2)];
      for (const [index, result] of first.entries())
        void result.then((value) => told.push(`${index + 1} → ${value}`));
      await group.drained();
      // Both results were told once the batch committed, before anything of the next batch.
      expect(told).toEqual(['1 → 10', '2 → 20', '9 → 90']);
      expect(batches).toEqual([[1, 2], [9]]);
      expect(group.depth).toBe(0);
    });

    it('with retries, a batch that throws is committed again, before what was queued after it', async () => {
      const calls: Array<{ items: number[]; attempt: number }> = [];
      const told: unknown[] = [];
      let failures = 2;
      const group = new GroupCommit(
        (items: number[], attempt: number) => {
          calls.push({ items: [...items], attempt });
          if (items.includes(1) && failures-- > 0) throw new Error(`down ${attempt}`);
          return items.map((item) => `done ${item}`);
        },
        { retryDelayMs: () => 0, onError: (error) => told.push((error as Error).message) },
      );
      const first = group.add(1);
      // Queued behind the failing batch, in the turn after it started.
      const later = new Promise<string>((resolve) => setImmediate(() => resolve(group.add(2))));
      expect(await first).toBe('done 1');
      expect(await later).toBe('done 2');
      expect(calls).toEqual([
        { items: [1], attempt: 0 },
        { items: [1], attempt: 1 },
        { items: [1], attempt: 2 },
        { items: [2], attempt: 0 },
      ]);
      expect(told).toEqual(['down 0', 'down 1']);
    });

    it('without retries, a batch that throws rejects its callers and the next batch still goes', async () => {
      const group = new GroupCommit((items: number[]) => {
        if (items.includes(1)) throw new Error('refused');
        return items.map((item) => item);
      });
      const failing = group.add(1);
      await expect(failing).rejects.toThrow('refused');
      expect(await group.add(2)).toBe(2);
    });

    it('goes on after a commit that waited: one answers at once, the next later, the next at once', async () => {
      const { calls, commit } = manualCommits();
      const answers: Array<'now' | 'later'> = ['now', 'later', 'now'];
      const group = new GroupCommit((items: number[], attempt: number) =>
        answers.shift() === 'later' ? commit(items, attempt) : items.map((item) => `now ${item}`),
      );
      expect(await group.add(1)).toBe('now 1');
      const second = group.add(2);
      await vi.waitFor(() => expect(calls).toHaveLength(1));
      const third = group.add(3);
      calls[0]?.land();
      expect(await second).toBe('done 2');
      expect(await third).toBe('now 3');
      await group.drained();
      expect(group.depth).toBe(0);
    });
  });
});
