/** A value at hand, or a promise of it: what a lookup answers from memory in its common case. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next` applied to `value`: at once when the value is at hand, else once it arrives. On the relay's
 * hot path this spares a call what an `await` costs (a promise, a turn of the microtask queue and a
 * suspension: docs/benchmarks.md, "Promises a call") for the lookups memory answers. `next`'s throw is
 * thrown at once or rejects, as the value came: a caller awaits the result, or tells the two apart.
 */
export function whenReady<T, R>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<R>,
): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
