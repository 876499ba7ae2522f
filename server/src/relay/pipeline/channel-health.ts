import { ChannelStatus } from '@switchyard/contract/roles';
import type { ChannelRow } from '../../db/schema';
import type { ChannelService } from '../../domain/channels';
import type { OptionsStore } from '../../domain/options';
import type { RelayMetrics } from '../../metrics/relay-metrics';
import type { RelayError } from '../errors';

const DISABLING_TYPES = new Set([
  'insufficient_quota',
  'authentication_error',
  'permission_error',
  'forbidden',
]);
const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated']);
const DISABLING_PHRASES = [
  'your access was terminated',
  'violation of our policies',
  'your credit balance is too low',
  'organization has been disabled',
  'credit',
  'balance',
  'permission denied',
  'organization has been restricted',
  'api key not valid',
  'api key expired',
  'invalid api key',
  'incorrect api key',
  '欠费',
];

/** Does this upstream error mean the channel's key or account is dead (not just a slow or busy upstream)? */
export function meansDeadChannel(error: RelayError): boolean {
  if (error.origin !== 'upstream') return false;
  if (error.status === 401) return true;
  if (DISABLING_TYPES.has(error.type)) return true;
  if (typeof error.code === 'string' && DISABLING_CODES.has(error.code)) return true;
  const message = error.message.toLowerCase();
  return DISABLING_PHRASES.some((phrase) => message.includes(phrase));
}

export interface HealthNotifier {
  channelDisabled(channel: ChannelRow, reason: string): void;
  channelEnabled(channel: ChannelRow): void;
}

/** Switches channels off when the provider says their key is dead, and back on when a test passes. */
export class ChannelHealth {
  constructor(
    private readonly deps: {
      options: OptionsStore;
      channels: ChannelService;
      notify?: HealthNotifier;
      metrics?: Pick<RelayMetrics, 'channelAutoDisabled'>;
    },
  ) {}

  async failed(channel: ChannelRow, error: RelayError): Promise<boolean> {
    if (!this.deps.options.bool('AutomaticDisableChannelEnabled') || !meansDeadChannel(error)) return false;
    return this.disable(channel, error.message);
  }

  async disable(channel: ChannelRow, reason: string): Promise<boolean> {
    if (channel.status !== ChannelStatus.enabled) return false;
    await this.deps.channels.setStatus(channel.id, ChannelStatus.autoDisabled);
    this.deps.metrics?.channelAutoDisabled(channel.id);
    this.deps.notify?.channelDisabled(channel, reason);
    return true;
  }

  /** Only what the system itself disabled comes back on its own. */
  async passed(channel: ChannelRow): Promise<boolean> {
    if (
      !this.deps.options.bool('AutomaticEnableChannelEnabled') ||
      channel.status !== ChannelStatus.autoDisabled
    ) {
      return false;
    }
    await this.deps.channels.setStatus(channel.id, ChannelStatus.enabled);
    this.deps.notify?.channelEnabled(channel);
    return true;
  }
}
