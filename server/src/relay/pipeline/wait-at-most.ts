import { atDeadline, cancelDeadline } from '../deadlines';

/** Resolves once `promise` has settled (either way), or about `ms` later, whichever comes first. */
export function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const deadline = atDeadline(performance.now() + ms, resolve);
    const done = () => {
      cancelDeadline(deadline);
      resolve();
    };
    promise.then(done, done);
  });
}
