import type { ChannelRow } from '../db/schema';
import type { LogService } from './logs';

/** Who hears that the relay or a channel test switched a channel off or back on. */
export interface HealthNotifier {
  channelDisabled(channel: ChannelRow, reason: string): void;
  channelEnabled(channel: ChannelRow): void;
}

interface SwitchLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Every automatic switch of a channel, said in three places: the server log, a system line in the
 * logs (the console's Logs page, filtered by channel) and root's notice (`alerts`).
 */
export function channelSwitchNotices(
  alerts: HealthNotifier,
  logs: LogService,
  log?: SwitchLog,
): HealthNotifier {
  const record = (channel: ChannelRow, content: string) =>
    logs
      .recordChannelSwitch(channel, content)
      .catch((error: unknown) =>
        log?.warn({ err: error, channelId: channel.id }, 'channel switch not logged'),
      );
  return {
    channelDisabled(channel, reason) {
      log?.info({ channelId: channel.id, reason }, 'channel disabled automatically');
      void record(
        channel,
        `Channel "${channel.name}" (#${channel.id}) was disabled automatically: ${reason}`,
      );
      alerts.channelDisabled(channel, reason);
    },
    channelEnabled(channel) {
      log?.info({ channelId: channel.id }, 'channel enabled again automatically');
      void record(channel, `Channel "${channel.name}" (#${channel.id}) was enabled again: its test passed`);
      alerts.channelEnabled(channel);
    },
  };
}
