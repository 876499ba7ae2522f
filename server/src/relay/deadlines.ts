/**
 * Deadlines on one shared, coarse ticker instead of a timer each. A relayed call keeps two to four
 * (its budget until the answer begins, the whole answer's read or a stream's silence bound and
 * keep-alive, its settlement's bounded wait), each for a duration of its own: a Node timer per
 * deadline made a timer list and a priority-queue entry per call. A deadline is called within TICK_MS
 * after it, never before it.
 *
 * The pending ones form a list linked through themselves, not a Set: with a Set taking and dropping
 * thousands a second, each scavenge copied more and more was promoted (a server life at c=64: 19 full
 * collections instead of 4, each call 20 µs of collection instead of 9); see docs/benchmarks.md.
 */
const TICK_MS = 50;

export interface Deadline {
  at: number;
  /** Unset once spent or cancelled: the deadline is then out of the list. */
  spent: (() => void) | undefined;
  previous: Deadline | undefined;
  next: Deadline | undefined;
}

let first: Deadline | undefined;
let ticker: NodeJS.Timeout | undefined;

function unlink(deadline: Deadline): void {
  if (deadline.previous) deadline.previous.next = deadline.next;
  else first = deadline.next;
  if (deadline.next) deadline.next.previous = deadline.previous;
  deadline.previous = undefined;
  deadline.next = undefined;
  deadline.spent = undefined;
}

function tick(): void {
  const now = performance.now();
  // Walked first with no callback running: a callback may cancel or add deadlines, or throw, and
  // none of that may make the walk skip one.
  const due: Deadline[] = [];
  for (let deadline = first; deadline; deadline = deadline.next) {
    if (deadline.at <= now) due.push(deadline);
  }
  for (const deadline of due) {
    const spent = deadline.spent;
    // An earlier one's callback may have cancelled it.
    if (!spent) continue;
    unlink(deadline);
    try {
      spent();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  if (first === undefined) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** Calls `spent` once performance.now() has reached `at` (at once when it has already). */
export function atDeadline(at: number, spent: () => void): Deadline {
  const deadline: Deadline = { at, spent: undefined, previous: undefined, next: undefined };
  if (at <= performance.now()) {
    spent();
    return deadline;
  }
  deadline.spent = spent;
  deadline.next = first;
  if (first) first.previous = deadline;
  first = deadline;
  ticker ??= setInterval(tick, TICK_MS);
  return deadline;
}

/** The deadline will not be called (nothing happens when it already was). */
export function cancelDeadline(deadline: Deadline | undefined): void {
  if (deadline?.spent) unlink(deadline);
}

/** Moves a deadline not yet called to `at`, sooner or later (nothing happens once called or cancelled). */
export function moveDeadline(deadline: Deadline, at: number): void {
  if (deadline.spent) deadline.at = at;
}
