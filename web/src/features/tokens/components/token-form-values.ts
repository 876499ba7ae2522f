import {
  createTokenInput,
  NEVER_EXPIRES,
  splitList,
  TOKEN_DEFAULT_REMAIN_QUOTA,
  type Token,
  updateTokenInput,
} from '@switchyard/contract/tokens';
import type { TFunction } from 'i18next';
import { type LimitValue, limitNumber, limitValue } from '../../../components/RateLimitInputs';
import { parseDateTime } from '../../../lib/date-input';
import { renderTimestamp } from '../../../lib/format';
import { type FieldErrors, fieldErrors } from '../../../lib/validation';
import type { TokenChange } from '../api/token-edit';

/** What the expiry field holds for a token that never expires. */
export const NEVER_TEXT = String(NEVER_EXPIRES);

const DAY = 24 * 60 * 60;

/** The quick expiry buttons: never, 30 days, 1 day, 1 hour, 1 minute from now. */
export const QUICK_EXPIRIES = [
  { key: 'never', seconds: 0 },
  { key: 'month', seconds: 30 * DAY },
  { key: 'day', seconds: DAY },
  { key: 'hour', seconds: 60 * 60 },
  { key: 'minute', seconds: 60 },
] as const;

export interface TokenFormValues {
  name: string;
  /** "-1" for never, otherwise a local date-time such as 2030-01-31 12:00:00. */
  expiry: string;
  remainQuota: number | string;
  unlimited: boolean;
  models: string[];
  subnet: string;
  /** The key's own limits and budget: '' for none. */
  rpm_limit: LimitValue;
  tpm_limit: LimitValue;
  concurrency_limit: LimitValue;
  budgetQuota: LimitValue;
  /** '' (no budget), daily, weekly or monthly. */
  budgetPeriod: string;
}

export function initialTokenValues(token?: Token): TokenFormValues {
  if (!token) {
    return {
      name: '',
      expiry: NEVER_TEXT,
      remainQuota: TOKEN_DEFAULT_REMAIN_QUOTA,
      unlimited: false,
      models: [],
      subnet: '',
      rpm_limit: '',
      tpm_limit: '',
      concurrency_limit: '',
      budgetQuota: '',
      budgetPeriod: '',
    };
  }
  return {
    name: token.name,
    expiry: token.expired_time === NEVER_EXPIRES ? NEVER_TEXT : renderTimestamp(token.expired_time),
    remainQuota: token.remain_quota,
    unlimited: token.unlimited_quota,
    models: splitList(token.models),
    subnet: token.subnet,
    rpm_limit: limitValue(token.rpm_limit),
    tpm_limit: limitValue(token.tpm_limit),
    concurrency_limit: limitValue(token.concurrency_limit),
    budgetQuota: limitValue(token.budget_quota),
    budgetPeriod: token.budget_period ?? '',
  };
}

/** The expiry field's text for a quick button pressed at `nowSeconds`. */
export function quickExpiry(seconds: number, nowSeconds: number): string {
  return seconds === 0 ? NEVER_TEXT : renderTimestamp(nowSeconds + seconds);
}

/** -1 for never, seconds since the epoch for a date-time, null when the text is neither. */
export function parseExpiry(text: string): number | null {
  return text.trim() === NEVER_TEXT ? NEVER_EXPIRES : parseDateTime(text);
}

export type TokenFormResult = { ok: true; change: TokenChange } | { ok: false; errors: FieldErrors };

const MESSAGES = ['tokens.form.errors', 'limits.errors'];

/** The form's values → the server's input, checked and normalised by the schema the server uses. */
export function toTokenChange(values: TokenFormValues, id: number | null, t: TFunction): TokenFormResult {
  const expiredTime = parseExpiry(values.expiry);
  if (expiredTime === null) return { ok: false, errors: { expired_time: t('tokens.form.expiryInvalid') } };
  const fields = {
    name: values.name,
    expired_time: expiredTime,
    remain_quota: Number.parseInt(String(values.remainQuota), 10),
    unlimited_quota: values.unlimited,
    models: values.models.join(','),
    subnet: values.subnet,
    rpm_limit: limitNumber(values.rpm_limit),
    tpm_limit: limitNumber(values.tpm_limit),
    concurrency_limit: limitNumber(values.concurrency_limit),
    budget_quota: limitNumber(values.budgetQuota),
    budget_period: values.budgetPeriod,
  };
  if (id === null) {
    const parsed = createTokenInput.safeParse(fields);
    return parsed.success
      ? { ok: true, change: { id: null, input: parsed.data } }
      : { ok: false, errors: fieldErrors(parsed.error.issues, t, MESSAGES) };
  }
  const parsed = updateTokenInput.safeParse({ ...fields, id });
  return parsed.success
    ? { ok: true, change: { id, input: parsed.data } }
    : { ok: false, errors: fieldErrors(parsed.error.issues, t, MESSAGES) };
}
