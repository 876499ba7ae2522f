import { trimBaseUrl } from '@switchyard/contract/base-url';
import { channelTypeById } from '@switchyard/contract/channel-types';
import type { ChannelRow } from '../db/schema';
import { configValues } from './channel-secrets';

/**
 * Whoever cannot read a channel's credentials cannot send them elsewhere. The catalogue says, per
 * type, which values are credentials (the key, unless the type keeps its credentials in config
 * fields marked `secret`) and which config fields steer where the requests go (`steers`: a region in
 * the host, a project or account in the path). The base URL, the type and `other` steer for every
 * type, and so does any config value the type's form does not know (the relay reads some of them:
 * Gemini's api_version, Ali's plugin, Tencent's region).
 */

/** Top-level fields that steer for every type: the address, the type (its default address and
 * how credentials are presented) and `other` (an API version or plugin in the URL or headers). */
const STEERING_FIELDS = ['base_url', 'type', 'other'] as const;

type Given = Partial<Pick<ChannelRow, (typeof STEERING_FIELDS)[number] | 'key' | 'config'>>;

/** A stored value as the form sends it back: trimmed, a base URL without its trailing slashes. */
const comparable = (value: string | number | null | undefined): string =>
  trimBaseUrl(String(value ?? '').trim());

/**
 * True when the request brings every credential the type uses anew (the key, or each secret config
 * field): then only what it brought can travel, wherever it points.
 */
export function bringsAllCredentials(type: number, given: Pick<Given, 'key' | 'config'>): boolean {
  const entry = channelTypeById(type);
  const values = configValues(given.config);
  const secretFields = (entry?.configFields ?? []).filter((field) => field.secret);
  const keyBrought = entry?.keyInConfig === true || Boolean(given.key?.trim());
  return keyBrought && secretFields.every((field) => Boolean(values[field.key]?.trim()));
}

/**
 * The first value the change gives anew that steers where the channel's requests go, named as the
 * client sent it (`base_url`, `config.region`); undefined when it steers nowhere new.
 */
export function steeringChange(type: number, current: ChannelRow, changes: Given): string | undefined {
  for (const field of STEERING_FIELDS) {
    if (changes[field] !== undefined && comparable(changes[field]) !== comparable(current[field]))
      return field;
  }
  if (changes.config === undefined) return undefined;
  const before = configValues(current.config);
  const after = configValues(changes.config);
  const fields = channelTypeById(type)?.configFields ?? [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const known = fields.find((field) => field.key === name);
    // A credential, or a setting that goes nowhere (Coze's user id, sent in the body).
    if (known && !known.steers) continue;
    if ((before[name] ?? '').trim() !== (after[name] ?? '').trim()) return `config.${name}`;
  }
  return undefined;
}
