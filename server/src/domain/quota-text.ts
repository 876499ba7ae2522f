import { formatQuota, QUOTA_DIGITS, type QuotaDisplay } from '@switchyard/contract/quota-format';
import type { OptionsStore } from './options';

/** The site's quota display settings, as the console reads them from /api/status. */
export function quotaDisplayOf(options: OptionsStore): QuotaDisplay {
  return {
    displayInCurrency: options.bool('DisplayInCurrencyEnabled'),
    quotaPerUnit: options.number('QuotaPerUnit'),
  };
}

/** How a quota amount reads in a log line: dollars when the site shows currency, else raw quota. */
export function quotaText(options: OptionsStore, quota: number): string {
  const display = quotaDisplayOf(options);
  return display.displayInCurrency ? formatQuota(quota, display, QUOTA_DIGITS.log) : `${quota} quota`;
}
