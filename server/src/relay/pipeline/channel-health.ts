import { ChannelStatus } from '@switchyard/contract/roles';
import type { ChannelRow } from '../../db/schema';
import type { HealthNotifier } from '../../domain/channel-switch-notices';
import type { ChannelService } from '../../domain/channels';
import type { OptionsStore } from '../../domain/options';
import type { RelayMetrics } from '../../metrics/relay-metrics';
import type { RelayError } from '../errors';
import type { SuccessRateWindow } from './success-rate-window';

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

/**
 * Switches channels off when the provider says their key is dead or, with the success-rate monitor
 * (ENABLE_METRIC), when too few of their last relayed calls succeeded; back on when a test passes.
 * The one place these rules live: the relay and the channel tests both come here.
 */
export class ChannelHealth {
  constructor(
    private readonly deps: {
      options: OptionsStore;
      channels: ChannelService;
      notify?: HealthNotifier;
      successRate?: SuccessRateWindow;
      metrics?: Pick<RelayMetrics, 'channelAutoDisabled'>;
    },
  ) {}

  /** A relayed call the channel answered. */
  succeeded(channel: ChannelRow): void {
    this.deps.successRate?.succeeded(channel.id);
  }

  /** A relayed call that failed on this channel; true when the channel was switched off for it. */
  async failed(channel: ChannelRow, error: RelayError): Promise<boolean> {
    if (this.deps.options.bool('AutomaticDisableChannelEnabled') && meansDeadChannel(error)) {
      return this.disable(channel, error.message);
    }
    // Only the provider's answers (or failing to reach it) count against the channel, as in one-api.
    if (error.origin !== 'upstream' || !this.deps.successRate) return false;
    const rate = this.deps.successRate.failed(channel.id);
    if (rate === undefined) return false;
    const { queueSize, successRateThreshold } = this.deps.successRate.settings;
    const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
    return this.disable(
      channel,
      `its success rate over the last ${queueSize} calls is ${percent(rate)}, under the threshold of ${percent(successRateThreshold)}`,
    );
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
