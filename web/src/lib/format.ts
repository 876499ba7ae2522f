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

/**
 * Quota for tables and forms, following the server's currency setting; amounts in thousands grouped
 * ($1,000,000,000.00), unlike the server's log and mail texts, which keep one-api's plain form.
 */
export function renderQuota(quota: number, digits: number = QUOTA_DIGITS.default): string {
  const display = readQuotaDisplay();
  if (!display.displayInCurrency) return formatQuota(quota, display, digits);
  const amount = quotaAmount(quota, display);
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
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
