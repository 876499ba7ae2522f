import {
  abbreviateNumber,
  formatQuota,
  QUOTA_DIGITS,
  type QuotaDisplay,
  quotaAmount,
} from '@switchyard/contract/quota-format';
import dayjs from 'dayjs';
import { readItem, StorageKey } from './storage';

/** The display settings saved from the last GET /api/status. */
export function readQuotaDisplay(): QuotaDisplay {
  const perUnit = Number.parseFloat(readItem(StorageKey.quotaPerUnit) ?? '');
  return {
    displayInCurrency: readItem(StorageKey.displayInCurrency) === 'true',
    quotaPerUnit: Number.isFinite(perUnit) && perUnit > 0 ? perUnit : 1,
  };
}

/** The most decimals an amount gets: one quota at the default $1 = 500,000 quota is $0.000002. */
const SMALL_AMOUNT_MAX_DIGITS = 6;

/**
 * Quota for tables and forms, following the server's currency setting; amounts in thousands grouped
 * ($1,000,000,000.00), unlike the server's log and mail texts, which keep one-api's plain form. An
 * amount that is not zero never shows as zero: below a cent it keeps two significant digits ($0.0012).
 */
export function renderQuota(quota: number, digits: number = QUOTA_DIGITS.default): string {
  const display = readQuotaDisplay();
  if (!display.displayInCurrency) return formatQuota(quota, display, digits);
  const amount = quotaAmount(quota, display);
  const tiny = amount !== 0 && Math.abs(amount) < 10 ** -digits;
  const shown = tiny
    ? Math.min(SMALL_AMOUNT_MAX_DIGITS, Math.max(digits, 1 - Math.floor(Math.log10(Math.abs(amount)))))
    : digits;
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: shown })}`;
}

export const renderLogQuota = (quota: number): string => renderQuota(quota, QUOTA_DIGITS.log);
export const renderTokenQuota = (quota: number): string => renderQuota(quota, QUOTA_DIGITS.token);
export const renderNumber = (value: number): string => abbreviateNumber(value);

/** Seconds since the epoch → "YYYY-MM-DD HH:mm:ss" in local time. */
export function renderTimestamp(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}

/** Long text cut to `limit` characters, ending with "...". */
export function truncateText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}
