import dayjs from 'dayjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { initialTokenValues, quickExpiry, type TokenFormValues, toTokenChange } from './token-form-values';

const t = i18n.t.bind(i18n);
const values = (patch: Partial<TokenFormValues> = {}): TokenFormValues => ({
  ...initialTokenValues(),
  name: 'ci',
  ...patch,
});

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('token form', () => {
  it('starts with 500000 quota, never expiring, no model or network restriction', () => {
    expect(initialTokenValues()).toEqual({
      name: '',
      expiry: '-1',
      remainQuota: 500000,
      unlimited: false,
      models: [],
      subnet: '',
      rpm_limit: '',
      tpm_limit: '',
      concurrency_limit: '',
      budgetQuota: '',
      budgetPeriod: '',
    });
  });

  it('sends -1 for never and a parsed integer quota', () => {
    const result = toTokenChange(values({ remainQuota: '1234.9', models: ['gpt-4o', 'o1'] }), null, t);
    expect(result).toEqual({
      ok: true,
      change: {
        id: null,
        input: {
          name: 'ci',
          expired_time: -1,
          remain_quota: 1234,
          unlimited_quota: false,
          models: 'gpt-4o,o1',
          subnet: '',
          rpm_limit: 0,
          tpm_limit: 0,
          concurrency_limit: 0,
          budget_quota: 0,
          budget_period: '',
        },
      },
    });
  });

  it('turns a typed expiry into seconds and keeps the id when editing', () => {
    const result = toTokenChange(values({ expiry: '2031-02-03 04:05:06' }), 7, t);
    expect(result.ok && result.change).toMatchObject({
      id: 7,
      input: { id: 7, expired_time: dayjs('2031-02-03T04:05:06').unix() },
    });
  });

  it("says 'expiry time format error' when the expiry does not parse", () => {
    expect(toTokenChange(values({ expiry: 'next week' }), null, t)).toEqual({
      ok: false,
      errors: { expired_time: 'Expiry time format error!' },
    });
  });

  it('asks for a name and a whole quota', () => {
    const result = toTokenChange(values({ name: '  ', remainQuota: '' }), null, t);
    expect(result.ok ? null : result.errors).toEqual({
      name: 'Please enter a token name.',
      remain_quota: 'Please enter a whole number of at least 0.',
    });
  });

  it('checks the subnet list with the shared CIDR parser and names the bad entry', () => {
    const good = toTokenChange(values({ subnet: '10.0.0.0/8, 2001:db8::/32' }), null, t);
    // Sent as the server stores it: the contract's schema joins the entries without spaces.
    expect(good.ok && good.change.input.subnet).toBe('10.0.0.0/8,2001:db8::/32');
    const bad = toTokenChange(values({ subnet: '10.0.0.0/8, 300.1.1.1/24' }), null, t);
    expect(bad.ok ? null : bad.errors.subnet).toBe(
      '"300.1.1.1/24" is not a valid CIDR block such as 192.168.1.0/24 or 2001:db8::/32.',
    );
  });

  it('refuses a subnet list longer than the server stores (191 characters once joined)', () => {
    const entries = Array.from({ length: 12 }, (_, i) => `192.168.${100 + i}.128/25`);
    // 198 characters as typed, 189 once the spaces are dropped: it fits.
    const fits = toTokenChange(values({ subnet: entries.slice(0, 10).join(', ') }), null, t);
    expect(fits.ok).toBe(true);
    const tooLong = toTokenChange(values({ subnet: entries.join(', ') }), 4, t);
    expect(tooLong.ok ? null : tooLong.errors.subnet).toBe('The IP restriction list is too long.');
  });

  it('loads an existing token into the fields', () => {
    const loaded = initialTokenValues({
      id: 3,
      user_id: 1,
      key: 'k',
      status: 1,
      name: 'old',
      created_time: 0,
      accessed_time: 0,
      expired_time: dayjs('2031-02-03T04:05:06').unix(),
      remain_quota: 10,
      unlimited_quota: true,
      used_quota: 0,
      models: 'a,b',
      subnet: '10.0.0.0/8',
      rpm_limit: 60,
      tpm_limit: 0,
      concurrency_limit: 2,
      budget_quota: 5000,
      budget_period: 'weekly',
      budget_used: 100,
      budget_reset_at: 0,
    });
    expect(loaded).toEqual({
      name: 'old',
      expiry: '2031-02-03 04:05:06',
      remainQuota: 10,
      unlimited: true,
      models: ['a', 'b'],
      subnet: '10.0.0.0/8',
      rpm_limit: 60,
      tpm_limit: '',
      concurrency_limit: 2,
      budgetQuota: 5000,
      budgetPeriod: 'weekly',
    });
  });

  it('sends empty limits as 0 (none) and typed ones as whole numbers', () => {
    const result = toTokenChange(
      values({
        rpm_limit: 60,
        tpm_limit: '',
        concurrency_limit: '3',
        budgetQuota: 1000,
        budgetPeriod: 'daily',
      }),
      null,
      t,
    );
    expect(result.ok && result.change.input).toMatchObject({
      rpm_limit: 60,
      tpm_limit: 0,
      concurrency_limit: 3,
      budget_quota: 1000,
      budget_period: 'daily',
    });
  });

  it('asks for a period with a budget, and for a budget with a period', () => {
    const noPeriod = toTokenChange(values({ budgetQuota: 1000 }), null, t);
    expect(noPeriod.ok ? null : noPeriod.errors).toEqual({
      budget_period: 'Choose when the budget starts over.',
    });
    const noBudget = toTokenChange(values({ budgetPeriod: 'monthly' }), null, t);
    expect(noBudget.ok ? null : noBudget.errors).toEqual({
      budget_quota: 'Enter the quota the key may spend per period, or choose no budget.',
    });
  });

  it('refuses a negative or fractional limit, in both languages', async () => {
    const negative = toTokenChange(values({ rpm_limit: -5 }), null, t);
    expect(negative.ok ? null : negative.errors.rpm_limit).toBe('Please enter a number of at least 0.');
    const fraction = toTokenChange(values({ tpm_limit: '1.5' }), null, t);
    expect(fraction.ok ? null : fraction.errors.tpm_limit).toBe(
      'Please enter a whole number, or leave it empty.',
    );
    await i18n.changeLanguage('zh');
    const zh = toTokenChange(values({ concurrency_limit: 'x' }), null, i18n.t.bind(i18n));
    expect(zh.ok ? null : zh.errors.concurrency_limit).toBe('请输入整数，或留空。');
    await i18n.changeLanguage('en');
  });

  it('quick buttons count from now: never, 30 days, 1 day, 1 hour, 1 minute', () => {
    const now = dayjs('2030-01-01T00:00:00').unix();
    expect(quickExpiry(0, now)).toBe('-1');
    expect(quickExpiry(30 * 86400, now)).toBe('2030-01-31 00:00:00');
    expect(quickExpiry(60, now)).toBe('2030-01-01 00:01:00');
  });
});
