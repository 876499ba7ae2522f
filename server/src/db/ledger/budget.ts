import { budgetPeriodStart, budgetSpent } from '@switchyard/contract/budget-period';

const num = (value: unknown) => Number(value ?? 0);

/** What a key's budget leaves in the period holding `now` (its holds not yet deducted); undefined without a budget. */
export function budgetLeft(token: Record<string, unknown>, now: number): number | undefined {
  const quota = num(token.budget_quota);
  if (quota <= 0 || budgetPeriodStart(token.budget_period as string | null, now) === undefined)
    return undefined;
  const spent = budgetSpent(
    {
      budget_period: token.budget_period as string | null,
      budget_used: num(token.budget_used),
      budget_start: token.budget_start === null ? null : num(token.budget_start),
    },
    now,
  );
  return quota - spent;
}
