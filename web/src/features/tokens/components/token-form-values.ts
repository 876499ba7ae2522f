import { parseSubnetList } from '@switchyard/contract/subnet';
import {
  createTokenInput,
  NEVER_EXPIRES,
  splitList,
  TOKEN_DEFAULT_REMAIN_QUOTA,
  TOKEN_NAME_MAX,
  TOKEN_SUBNET_MAX,
  type Token,
  updateTokenInput,
} from '@switchyard/contract/tokens';
import type { TFunction } from 'i18next';
import { parseDateTime } from '../../../lib/date-input';
import { renderTimestamp } from '../../../lib/format';
import type { FieldErrors, ValidationIssue } from '../../../lib/validation';
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
    };
  }
  return {
    name: token.name,
    expiry: token.expired_time === NEVER_EXPIRES ? NEVER_TEXT : renderTimestamp(token.expired_time),
    remainQuota: token.remain_quota,
    unlimited: token.unlimited_quota,
    models: splitList(token.models),
    subnet: token.subnet,
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

/** The form's values → the server's input, checked with the same schema the server uses. */
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
  };
  // The server stores the list joined by commas in a 191-character column: refuse what will not fit.
  const subnetTooLong = splitList(values.subnet).join(',').length > TOKEN_SUBNET_MAX;
  const refused = (errors: FieldErrors): TokenFormResult => {
    if (subnetTooLong) errors.subnet ??= t('tokens.form.subnetTooLong');
    return { ok: false, errors };
  };
  if (id === null) {
    const parsed = createTokenInput.safeParse(fields);
    if (parsed.success && !subnetTooLong) return { ok: true, change: { id: null, input: parsed.data } };
    return refused(parsed.success ? {} : tokenFieldErrors(parsed.error.issues, values, t));
  }
  const parsed = updateTokenInput.safeParse({ ...fields, id });
  if (parsed.success && !subnetTooLong) return { ok: true, change: { id, input: parsed.data } };
  return refused(parsed.success ? {} : tokenFieldErrors(parsed.error.issues, values, t));
}

function tokenFieldErrors(issues: readonly ValidationIssue[], values: TokenFormValues, t: TFunction) {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issueMessage(field, issue.code, values, t);
  }
  return errors;
}

function issueMessage(field: string, code: string, values: TokenFormValues, t: TFunction): string {
  switch (field) {
    case 'name':
      return code === 'too_big'
        ? t('tokens.form.nameTooLong', { max: TOKEN_NAME_MAX })
        : t('tokens.form.nameRequired');
    case 'remain_quota':
      return t('tokens.form.quotaInvalid');
    case 'subnet':
      return subnetError(values.subnet, t);
    default:
      return t('validation.invalid');
  }
}

/** Names the first entry of the list that is not a CIDR block. */
function subnetError(subnet: string, t: TFunction): string {
  const entry = subnet
    .split(',')
    .map((item) => item.trim())
    .find((item) => item !== '' && 'error' in parseSubnetList(item));
  return entry === undefined ? t('tokens.form.subnetTooLong') : t('tokens.form.subnetInvalid', { entry });
}
