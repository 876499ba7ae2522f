import { useState } from 'react';
import type { FieldErrors } from './validation';

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
  return { values, setValues, errors, setErrors, set };
}
