import { describe, expect, it } from 'vitest';
import { isTwoDecimalCurrency, minorUnitsText, parseAmountOptions, priceInMinorUnits } from './payments';

describe('top-up prices', () => {
  it('are read in minor units exactly, with at most two decimals', () => {
    expect(priceInMinorUnits('7.3')).toBe(730);
    expect(priceInMinorUnits(' 0.07 ')).toBe(7);
    expect(priceInMinorUnits('12')).toBe(1200);
    expect(priceInMinorUnits('0.10')).toBe(10);
    for (const bad of ['1.234', '-1', '1e3', '', '.5', '01', 'NaN', '1,5', '123456789'])
      expect(priceInMinorUnits(bad), bad).toBeUndefined();
  });

  it('are written back as gateways expect them', () => {
    expect(minorUnitsText(500)).toBe('5.00');
    expect(minorUnitsText(7)).toBe('0.07');
    expect(minorUnitsText(123456)).toBe('1234.56');
  });

  it('offer whole positive amounts, twelve at most', () => {
    expect(parseAmountOptions('10, 20,50,')).toEqual([10, 20, 50]);
    expect(parseAmountOptions('')).toEqual([]);
    for (const bad of ['10,-5', '1.5', '0', 'ten', Array(13).fill('1').join(',')])
      expect(parseAmountOptions(bad), bad).toBeUndefined();
  });

  it('are kept in currencies with two decimals only', () => {
    expect(isTwoDecimalCurrency('USD')).toBe(true);
    expect(isTwoDecimalCurrency('CNY')).toBe(true);
    for (const bad of ['JPY', 'KWD', 'usd', 'US', 'DOLLAR'])
      expect(isTwoDecimalCurrency(bad), bad).toBe(false);
  });
});
