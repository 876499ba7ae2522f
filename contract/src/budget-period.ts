import type { BudgetPeriod } from './limits';

/**
 * The periods of a key's budget, in the local time zone of the process that computes them (the
 * server's): a day starts at 00:00, a week on Monday at 00:00, a month on the 1st at 00:00.
 * Times are Unix seconds.
 */
const isPeriod = (period: string | null | undefined): period is BudgetPeriod =>
  period === 'daily' || period === 'weekly' || period === 'monthly';

/** When the period holding `now` began; undefined for a key without a (known) period. */
export function budgetPeriodStart(period: string | null | undefined, now: number): number | undefined {
  if (!isPeriod(period)) return undefined;
  const date = new Date(now * 1000);
  date.setHours(0, 0, 0, 0);
  if (period === 'weekly') date.setDate(date.getDate() - ((date.getDay() + 6) % 7));
  if (period === 'monthly') date.setDate(1);
  return Math.floor(date.getTime() / 1000);
}

/** When the period holding `now` ends, which is when the next one begins. */
export function budgetPeriodEnd(period: string | null | undefined, now: number): number | undefined {
  const start = budgetPeriodStart(period, now);
  if (start === undefined) return undefined;
  const date = new Date(start * 1000);
  if (period === 'daily') date.setDate(date.getDate() + 1);
  if (period === 'weekly') date.setDate(date.getDate() + 7);
  if (period === 'monthly') date.setMonth(date.getMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

/** What a key spent in the period holding `now`: nothing yet when its count is of an earlier one. */
export function budgetSpent(
  row: { budget_period: string | null; budget_used: number | null; budget_start: number | null },
  now: number,
): number {
  const start = budgetPeriodStart(row.budget_period, now);
  return start !== undefined && Number(row.budget_start ?? -1) === start ? Number(row.budget_used ?? 0) : 0;
}
