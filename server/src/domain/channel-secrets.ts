import { CHANNEL_TYPES, channelTypeById } from '@switchyard/contract/channel-types';
import type { ChannelRow } from '../db/schema';

/** The channel's config as an object of its text values; malformed config is none. */
export function configValues(config: string | null | undefined): Record<string, string> {
  try {
    const parsed = JSON.parse(config || '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** The config keys of the channel's type that hold credentials (AWS's ak/sk, Vertex's key file). */
export const secretConfigKeys = (type: number): string[] =>
  (channelTypeById(type)?.configFields ?? []).filter((field) => field.secret).map((field) => field.key);

/** The config keys that hold a credential in any type: hidden and redacted whatever the channel's type now is. */
export const SECRET_CONFIG_KEYS: readonly string[] = [
  ...new Set(CHANNEL_TYPES.flatMap((type) => secretConfigKeys(type.id))),
];

/**
 * Everything that must never be shown or logged for a channel: its key and its secret config values,
 * one per line (redactSecrets also takes out each longer part of them). Configuration is no secret:
 * a key composed of config fields (Bedrock's `ak|sk|region`, Vertex's `region|project|key file`)
 * gives only its credential parts, so that an error naming the region or project still shows it.
 */
export function channelSecrets(channel: Pick<ChannelRow, 'type' | 'key' | 'config'>): string {
  const values = configValues(channel.config);
  const secrets = SECRET_CONFIG_KEYS.flatMap((name) => withInnerValues(values[name] ?? ''));
  const settings = new Set(
    Object.entries(values)
      .filter(([name]) => !SECRET_CONFIG_KEYS.includes(name))
      .map(([, value]) => value.trim()),
  );
  const keyParts = channelTypeById(channel.type)?.keyInConfig
    ? channel.key.split('|').filter((part) => !settings.has(part.trim()))
    : [channel.key];
  return [...keyParts, ...secrets].filter((secret) => secret && !settings.has(secret.trim())).join('\n');
}

/** A secret that is a JSON document (a service-account key file) and its text fields as they decode (the PEM). */
function withInnerValues(secret: string): string[] {
  const inner = Object.values(configValues(secret)).filter((value) => value.length >= 16);
  return [secret, ...inner];
}
