import { describe, expect, it } from 'vitest';
import { budgetPeriodEnd, budgetPeriodStart, budgetSpent } from './budget-period';
import { createTokenInput } from './tokens';

const at = (...parts: [number, number, number, number?, number?]) =>
  new Date(parts[0], parts[1], parts[2], parts[3] ?? 0, parts[4] ?? 0).getTime() / 1000;

describe('budget periods (local time)', () => {
  it('starts days at 00:00, weeks on Monday, months on the 1st', () => {
    const wednesday = at(2030, 0, 16, 12, 30);
    expect(budgetPeriodStart('daily', wednesday)).toBe(at(2030, 0, 16));
    expect(budgetPeriodEnd('daily', wednesday)).toBe(at(2030, 0, 17));
    expect(budgetPeriodStart('weekly', wednesday)).toBe(at(2030, 0, 14));
    expect(budgetPeriodEnd('weekly', wednesday)).toBe(at(2030, 0, 21));
    // A Sunday still belongs to the week that began on Monday.
    expect(budgetPeriodStart('weekly', at(2030, 0, 20, 23, 59))).toBe(at(2030, 0, 14));
    expect(budgetPeriodStart('monthly', wednesday)).toBe(at(2030, 0, 1));
    expect(budgetPeriodEnd('monthly', at(2030, 0, 31, 23))).toBe(at(2030, 1, 1));
    expect(budgetPeriodEnd('monthly', at(2030, 11, 31))).toBe(at(2031, 0, 1));
    expect(budgetPeriodStart('', wednesday)).toBeUndefined();
    expect(budgetPeriodStart('hourly', wednesday)).toBeUndefined();
  });

  it('counts what was spent in the current period only', () => {
    const now = at(2030, 0, 16, 12);
    const row = { budget_period: 'daily', budget_used: 700, budget_start: at(2030, 0, 16) };
    expect(budgetSpent(row, now)).toBe(700);
    expect(budgetSpent(row, at(2030, 0, 17, 0, 1))).toBe(0);
    expect(budgetSpent({ ...row, budget_start: null }, now)).toBe(0);
  });
});

describe('limits and budget in the token input', () => {
  it('takes whole limits and a budget with its period', () => {
    expect(
      createTokenInput.parse({ name: 'k', rpm_limit: 60, budget_quota: 1000, budget_period: 'weekly' }),
    ).toMatchObject({ rpm_limit: 60, budget_quota: 1000, budget_period: 'weekly' });
  });

  it('says what is wrong, by field', () => {
    const issues = (input: Record<string, unknown>) =>
      createTokenInput
        .safeParse({ name: 'k', ...input })
        .error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ rpm_limit: -1 })).toEqual([
      ['rpm_limit', 'rpm_limit cannot be negative; 0 means no limit'],
    ]);
    expect(issues({ budget_quota: 5 })).toEqual([
      ['budget_period', 'Choose when the budget starts over: daily, weekly or monthly'],
    ]);
    expect(issues({ budget_period: 'monthly' })).toEqual([
      ['budget_quota', 'Enter the quota the key may spend per period, or choose no period'],
    ]);
  });
});
