import type { OptionsStore } from './options';

/** How a quota amount reads in a log line: dollars when the site shows currency, else raw quota. */
export function quotaText(options: OptionsStore, quota: number): string {
  if (options.bool('DisplayInCurrencyEnabled')) {
    const perUnit = options.number('QuotaPerUnit') || 1;
    return `$${(quota / perUnit).toFixed(6)}`;
  }
  return `${quota} quota`;
}
