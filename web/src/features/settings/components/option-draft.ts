import {
  isSecretOption,
  normaliseOptionValue,
  OPTION_SPECS,
  type OptionEntry,
  type OptionKey,
  validateOptionValue,
} from '@switchyard/contract/options';

/** How a stored value is shown in its field: ratio JSON pretty-printed, secrets empty. */
export function displayValue(key: OptionKey, stored: string | undefined): string {
  if (isSecretOption(key)) return '';
  const value = stored ?? OPTION_SPECS[key].default;
  if (OPTION_SPECS[key].kind === 'ratio-json') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * The options to save: only values that differ from what the fields showed at load, and
 * secrets only when something was typed (an empty secret field keeps the stored secret).
 */
export function changedOptions(
  keys: OptionKey[],
  draft: Partial<Record<OptionKey, string>>,
  shown: Partial<Record<OptionKey, string>>,
): OptionEntry[] {
  const changes: OptionEntry[] = [];
  for (const key of keys) {
    const typed = draft[key] ?? '';
    if (isSecretOption(key)) {
      if (typed.trim() !== '') changes.push({ key, value: typed.trim() });
      continue;
    }
    const value = normaliseOptionValue(key, typed);
    if (value !== normaliseOptionValue(key, shown[key] ?? '')) changes.push({ key, value });
  }
  return changes;
}

export type OptionProblem =
  | { kind: 'json'; key: OptionKey }
  | { kind: 'ratios'; key: OptionKey }
  | { kind: 'integer'; key: OptionKey }
  | { kind: 'number'; key: OptionKey }
  | { kind: 'other'; key: OptionKey; message: string };

/** The shared check (contract validateOptionValue), classified so the message can be translated. */
export function optionProblem(key: OptionKey, value: string): OptionProblem | null {
  const message = validateOptionValue(key, value);
  if (message === null) return null;
  switch (OPTION_SPECS[key].kind) {
    case 'ratio-json':
      return isJson(value) ? { kind: 'ratios', key } : { kind: 'json', key };
    case 'integer':
      return { kind: 'integer', key };
    case 'number':
      return { kind: 'number', key };
    default:
      return { kind: 'other', key, message };
  }
}

function isJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}
