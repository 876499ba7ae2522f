/**
 * How long a relayed call waits for the database on its way (reading its key and user, loading
 * channels, holding quota): RELAY_TIMEOUT, and 5 s at most. Then it is refused with 503
 * `database_unavailable`; its settlement, once served, is not bound by this (it is retried until it lands).
 */
export const relayDatabaseWaitMs = (relayTimeoutMs: number): number => Math.min(relayTimeoutMs, 5_000);

/**
 * The database did not answer within the wait a call allows it (a partition: connections open,
 * nothing coming back). Counted as unreachable (`isDatabaseUnreachable`): the caller gets 503.
 */
export class DatabaseDeadlineError extends Error {
  readonly code = 'DATABASE_DEADLINE';

  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
  }
}

/**
 * `work`'s answer, or DatabaseDeadlineError after `ms`. The work itself goes on: `onLate` is told
 * what it answers after the deadline, to undo what nobody waits for any more (a hold that lands).
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, onLate?: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new DatabaseDeadlineError(ms));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        if (late) onLate?.(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!late) reject(error);
      },
    );
  });
}
