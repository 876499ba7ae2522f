import {
  type CreateRedemptionInput,
  createRedemptionInput,
  REDEMPTION_DEFAULT_QUOTA,
  REDEMPTION_MAX_COUNT,
  REDEMPTION_NAME_MAX,
  type Redemption,
  type UpdateRedemptionInput,
  updateRedemptionInput,
} from '@switchyard/contract/redemptions';
import type { TFunction } from 'i18next';
import type { FieldErrors, ValidationIssue } from '../../../lib/validation';

export interface RedemptionFormValues {
  name: string;
  quota: number | string;
  /** Creation only. */
  count: number | string;
}

export function initialRedemptionValues(code?: Redemption): RedemptionFormValues {
  return code
    ? { name: code.name, quota: code.quota, count: 1 }
    : { name: '', quota: REDEMPTION_DEFAULT_QUOTA, count: 1 };
}

const toInteger = (value: number | string): number => Number.parseInt(String(value), 10);

type Result<I> = { ok: true; input: I } | { ok: false; errors: FieldErrors };

/** New codes: name, quota and count parsed as integers, checked with the server's schema. */
export function toCreateInput(values: RedemptionFormValues, t: TFunction): Result<CreateRedemptionInput> {
  const parsed = createRedemptionInput.safeParse({
    name: values.name,
    quota: toInteger(values.quota),
    count: toInteger(values.count),
  });
  return parsed.success
    ? { ok: true, input: parsed.data }
    : { ok: false, errors: redemptionFieldErrors(parsed.error.issues, t) };
}

/** An edited code: its name and quota. */
export function toUpdateInput(
  values: RedemptionFormValues,
  id: number,
  t: TFunction,
): Result<UpdateRedemptionInput> {
  const parsed = updateRedemptionInput.safeParse({ id, name: values.name, quota: toInteger(values.quota) });
  return parsed.success
    ? { ok: true, input: parsed.data }
    : { ok: false, errors: redemptionFieldErrors(parsed.error.issues, t) };
}

function redemptionFieldErrors(issues: readonly ValidationIssue[], t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issueMessage(field, issue.code, t);
  }
  return errors;
}

function issueMessage(field: string, code: string, t: TFunction): string {
  switch (field) {
    case 'name':
      return code === 'too_big'
        ? t('redemptions.form.nameTooLong', { max: REDEMPTION_NAME_MAX })
        : t('redemptions.form.nameRequired');
    case 'quota':
      return t('redemptions.form.quotaInvalid');
    case 'count':
      return t('redemptions.form.countInvalid', { max: REDEMPTION_MAX_COUNT });
    default:
      return t('validation.invalid');
  }
}

/** The download of freshly created codes: `<name>.txt`, one code per line. */
export function codesFile(name: string, codes: string[]): { filename: string; text: string } {
  return { filename: `${name}.txt`, text: codes.map((code) => `${code}\n`).join('') };
}
