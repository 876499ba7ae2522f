/** A time range, both ends inclusive; a missing end is unbounded. */
export interface TimeRange {
  from?: number;
  to?: number;
}

/**
 * Splits a range into the buckets of `size` it covers whole (bucket >= start and < end) and the
 * parts left at its edges.
 */
export function splitRange(
  range: TimeRange,
  size: number,
): { whole?: { from?: number; before?: number }; edges: TimeRange[] } {
  const start = range.from === undefined ? undefined : Math.ceil(range.from / size) * size;
  const end = range.to === undefined ? undefined : Math.floor((range.to + 1) / size) * size;
  if (start !== undefined && end !== undefined && start >= end) return { edges: [range] };
  const edges: TimeRange[] = [];
  if (range.from !== undefined && start !== undefined && range.from < start)
    edges.push({ from: range.from, to: start - 1 });
  if (range.to !== undefined && end !== undefined && end <= range.to) edges.push({ from: end, to: range.to });
  return { whole: { from: start, before: end }, edges };
}
