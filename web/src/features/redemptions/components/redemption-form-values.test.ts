import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { codesFile, initialRedemptionValues, toCreateInput, toUpdateInput } from './redemption-form-values';

const t = i18n.t.bind(i18n);

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('redemption form', () => {
  it('starts with quota 100000 and one code', () => {
    expect(initialRedemptionValues()).toEqual({ name: '', quota: 100000, count: 1 });
  });

  it('parses quota and count as integers', () => {
    expect(toCreateInput({ name: ' promo ', quota: '2500.7', count: '3' }, t)).toEqual({
      ok: true,
      input: { name: 'promo', quota: 2500, count: 3 },
    });
    expect(toUpdateInput({ name: 'promo', quota: 10, count: 1 }, 4, t)).toEqual({
      ok: true,
      input: { id: 4, name: 'promo', quota: 10 },
    });
  });

  it('needs a name and at most 100 codes', () => {
    const result = toCreateInput({ name: '', quota: 1, count: 101 }, t);
    expect(result.ok ? null : result.errors).toEqual({
      name: 'Please enter a name for the codes.',
      count: 'Please enter a whole number from 1 to 100.',
    });
  });

  it('downloads the codes as <name>.txt, one per line', () => {
    expect(codesFile('promo', ['a1', 'b2', 'c3'])).toEqual({ filename: 'promo.txt', text: 'a1\nb2\nc3\n' });
  });
});
