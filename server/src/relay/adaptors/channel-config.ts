import { RelayError } from '../errors';
import type { RelayCall } from './types';

/** A text setting in the channel's config JSON; a malformed config, or an empty or non-text value, is unset. */
export function configText(call: Pick<RelayCall, 'channel'>, name: string): string | undefined {
  try {
    const value = (JSON.parse(call.channel.config || '{}') as Record<string, unknown>)[name];
    return typeof value === 'string' && value ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The setting, else the channel's `other` field, where one-api kept it before channels had a config. */
export const configTextOrOther = (call: Pick<RelayCall, 'channel'>, name: string): string | undefined =>
  configText(call, name) ?? (call.channel.other?.trim() || undefined);

/** A setting the channel cannot work without; its absence is the channel's fault, named for the administrator. */
export function requiredConfigText(call: Pick<RelayCall, 'channel'>, name: string, label: string): string {
  const value = configText(call, name)?.trim();
  if (value) return value;
  throw RelayError.gateway(
    500,
    `The channel has no ${label}: set it in the channel's settings`,
    'channel_config_missing',
  );
}
