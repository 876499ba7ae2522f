import { AUDIT_SECRET_MARKER } from '@switchyard/contract/audit';
import { isSecretOption, OPTION_SPECS, type OptionKey } from '@switchyard/contract/options';

/**
 * The one rule of what an audit entry never shows: a field (or a nested JSON member, such as a
 * channel config's `sk`) whose name says key, secret, token, password or credential, and every
 * option the options' specs mark secret.
 */
const SECRET_NAME = /key|secret|token|password|credential|adc|^sk$|^ak$/i;

export const isSecretField = (name: string): boolean =>
  SECRET_NAME.test(name) || (name in OPTION_SPECS && isSecretOption(name as OptionKey));

/** JSON held in a text column (a channel's config): its secret members are masked, not the whole. */
const JSON_TEXT_FIELDS = new Set(['config']);

function maskJsonText(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? maskValue(parsed) : parsed;
  } catch {
    return AUDIT_SECRET_MARKER;
  }
}

function maskValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskValue);
  if (typeof value !== 'object' || value === null) return value;
  return maskFields(value as Record<string, unknown>);
}

/** A copy with every secret replaced by the marker (an empty secret stays empty: nothing to hide). */
export function maskFields(record: Record<string, unknown>): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (isSecretField(name)) masked[name] = value === '' || value == null ? value : AUDIT_SECRET_MARKER;
    else if (JSON_TEXT_FIELDS.has(name) && typeof value === 'string' && value !== '')
      masked[name] = maskJsonText(value);
    else masked[name] = maskValue(value);
  }
  return masked;
}
