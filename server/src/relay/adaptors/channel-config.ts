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
