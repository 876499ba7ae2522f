import { budgetPeriodEnd } from '@switchyard/contract/budget-period';
import { nowSeconds } from '../../clock';
import type { TokenRow } from '../../db/schema';
import { RelayError } from '../errors';

/** The key's budget period when it has a budget: its holds are then guarded by the budget too. */
export function budgetPeriodOf(row: TokenRow): string | undefined {
  return Number(row.budget_quota ?? 0) > 0 && row.budget_period ? row.budget_period : undefined;
}

/** 429: the key's budget for this period is spent (or held by calls in flight); names when it starts over. */
export function budgetRefused(row: TokenRow | undefined): RelayError {
  const period = row?.budget_period ?? '';
  const resetAt = budgetPeriodEnd(period, nowSeconds());
  const when = resetAt === undefined ? '' : `; it starts over at ${new Date(resetAt * 1000).toISOString()}`;
  return RelayError.gateway(
    429,
    `This API key has used up its ${period} budget of ${row?.budget_quota ?? 0} quota${when}`,
    'key_budget_exceeded',
    'insufficient_quota',
  );
}
