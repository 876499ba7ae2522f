import {
  type CreateRedemptionInput,
  createRedemptionInput,
  REDEMPTION_DEFAULT_QUOTA,
  type Redemption,
  type UpdateRedemptionInput,
  updateRedemptionInput,
} from '@switchyard/contract/redemptions';
import type { TFunction } from 'i18next';
import { type FieldErrors, fieldErrors } from '../../../lib/validation';

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

const MESSAGES = ['redemptions.form.errors'];

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
    : { ok: false, errors: fieldErrors(parsed.error.issues, t, MESSAGES) };
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
    : { ok: false, errors: fieldErrors(parsed.error.issues, t, MESSAGES) };
}

/** The download of freshly created codes: `<name>.txt`, one code per line. */
export function codesFile(name: string, codes: string[]): { filename: string; text: string } {
  return { filename: `${name}.txt`, text: codes.map((code) => `${code}\n`).join('') };
}
