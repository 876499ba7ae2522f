import { type ChangeEvent, useState } from 'react';
import type { FieldErrors } from './validation';

/** The keys of a form's values that hold text. */
type TextKey<Values> = { [K in keyof Values]: Values[K] extends string ? K : never }[keyof Values];

/**
 * A form's values and its per-field errors. Changing a value clears the error of the server field
 * it feeds (`errorField` maps form keys to those names).
 */
export function useFormFields<Values extends object>(
  initial: () => Values,
  errorField: Record<keyof Values, string>,
) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [errorField[key]]: undefined }));
  };
  /** A text input's value, change and error, bound to one value. */
  const text = <K extends TextKey<Values>>(key: K) => ({
    value: values[key] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.currentTarget.value as Values[K]),
    error: errors[errorField[key]],
  });
  return { values, setValues, errors, setErrors, set, text };
}
