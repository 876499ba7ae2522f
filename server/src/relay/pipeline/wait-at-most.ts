/**
 * Bounded waits on one shared, coarse ticker instead of a timer each: every call waits for its
 * settlement this way, and a Timeout per call (made, listed, cleared) costs more than the wait's
 * other work. A wait ends when its promise settles, or within TICK_MS after its bound.
 */
const TICK_MS = 50;

interface Waiter {
  deadline: number;
  resolve: () => void;
}

const waiters = new Set<Waiter>();
let ticker: NodeJS.Timeout | undefined;

function tick(): void {
  const now = performance.now();
  for (const waiter of waiters) {
    if (waiter.deadline <= now) {
      waiters.delete(waiter);
      waiter.resolve();
    }
  }
  if (waiters.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** Resolves once `promise` has settled (either way), or about `ms` later, whichever comes first. */
export function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const waiter: Waiter = { deadline: performance.now() + ms, resolve };
    waiters.add(waiter);
    ticker ??= setInterval(tick, TICK_MS);
    const done = () => {
      waiters.delete(waiter);
      resolve();
    };
    promise.then(done, done);
  });
}
