import { channelTypeById } from '@switchyard/contract/channel-types';
import { isRegion } from '@switchyard/contract/channel-types-cloud';
import type { ChannelRow } from '../db/schema';
import { configValues, SECRET_CONFIG_KEYS, secretConfigKeys } from './channel-secrets';
import { DomainError } from './errors';

/** Whether a service-account key file has what the token exchange signs with. */
function isServiceAccountKey(text: string): boolean {
  const values = configValues(text);
  return Boolean(values.client_email && values.private_key);
}

/** Refuses a config that lacks a required field of the type, or whose key file is no key file. */
export function checkRequiredConfig(type: number, config: string | null | undefined): void {
  const values = configValues(config);
  for (const field of channelTypeById(type)?.configFields ?? []) {
    const value = values[field.key]?.trim() ?? '';
    if (field.required && !value) throw new DomainError('channel_config_required', { field: field.key });
    if (field.key === 'vertex_ai_adc' && value && !isServiceAccountKey(value)) {
      throw new DomainError('channel_config_adc_invalid');
    }
    if (field.format === 'region' && value && !isRegion(value)) {
      throw new DomainError('channel_config_region_invalid', { field: field.key });
    }
  }
}

/** A JSON text on one line (a key file pasted with its line breaks), else the text without them. */
const oneLine = (text: string): string => {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\s*\n\s*/g, '');
  }
};

/**
 * The key one-api's console writes for a type whose credentials are config fields, when none is given:
 * AWS `ak|sk|region`, Vertex AI `region|project|key file` (the file on one line). The relay reads the
 * config; the key only keeps one-api's stored shape (and, like any key, is shown to root only).
 */
export function composedKey(type: number, config: string | null | undefined): string {
  const values = configValues(config);
  const value = (name: string) => values[name]?.trim() ?? '';
  if (channelTypeById(type)?.apiStyle === 'aws') return [value('ak'), value('sk'), value('region')].join('|');
  return [value('region'), value('vertex_ai_project_id'), oneLine(value('vertex_ai_adc'))].join('|');
}

/**
 * An edited config with the secrets the form left empty taken from the stored one: a client that may
 * not read them (an admin) sends them back blank, and blank means "keep", as for the key.
 */
export function withStoredSecrets(
  type: number,
  given: string,
  current: Pick<ChannelRow, 'type' | 'config'>,
): string {
  if (type !== current.type) return given;
  const values = configValues(given);
  const stored = configValues(current.config);
  let restored = false;
  for (const name of secretConfigKeys(type)) {
    if (!values[name] && stored[name]) {
      values[name] = stored[name];
      restored = true;
    }
  }
  return restored ? JSON.stringify(values) : given;
}

/**
 * The config as a client that is not root may see it: every secret value emptied, the type's and
 * any other type's (a config kept from before the type changed still holds them).
 */
export function configWithoutSecrets(config: string | null | undefined): string {
  const names = SECRET_CONFIG_KEYS;
  if (!config || names.length === 0) return config ?? '';
  const values = configValues(config);
  if (!names.some((name) => values[name])) return config;
  for (const name of names) if (values[name]) values[name] = '';
  return JSON.stringify(values);
}
