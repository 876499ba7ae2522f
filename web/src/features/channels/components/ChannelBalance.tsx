import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import { useUpdateChannelBalance } from '../api/channel-actions';
import type { ChannelRow } from '../api/channels-list';
import { balanceText } from './channel-display';

/** The balance in the type's unit with its refresh button; 'not supported' alone for a type that has no balance to read. */
export function ChannelBalance({ channel }: { channel: ChannelRow }) {
  const { t } = useTranslation();
  const update = useUpdateChannelBalance();
  const text = balanceText(channel.type, channel.balance);
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip
        label={
          channel.balance_updated_time
            ? t('channels.balanceUpdatedAt', { time: renderTimestamp(channel.balance_updated_time) })
            : t('channels.balanceNeverUpdated')
        }
        withArrow
        openDelay={50}
        disabled={text === null}
      >
        <Text span size="sm" c={text === null ? 'dimmed' : undefined} data-testid="balance">
          {text ?? t('channels.notSupported')}
        </Text>
      </Tooltip>
      {text !== null && (
        <Tooltip label={t('channels.actions.updateBalance')} withArrow openDelay={300}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            className="tap-target"
            aria-label={t('channels.actions.updateBalance')}
            loading={update.isPending}
            onClick={() => update.mutate(channel)}
          >
            <span aria-hidden>↻</span>
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
