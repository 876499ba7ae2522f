import { Badge, Group, Tooltip } from '@mantine/core';
import { channelTypeById, channelTypeLabel } from '@switchyard/contract/channel-types';
import { ChannelStatus } from '@switchyard/contract/roles';
import { splitList } from '@switchyard/contract/tokens';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import { responseSeconds, responseTimeColor } from './channel-display';

/** The catalogue name of a type in the console's language ("Proxy: AI Proxy" for proxies). */
export function useTypeLabel(): (type: number) => string {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  return (type) => {
    const entry = channelTypeById(type);
    return entry ? channelTypeLabel(entry, lang) : t('channels.unknownType');
  };
}

export function ChannelTypeBadge({ type }: { type: number }) {
  const label = useTypeLabel();
  return (
    <Badge variant="outline" color={channelTypeById(type)?.color ?? 'gray'} tt="none" data-type={type}>
      {label(type)}
    </Badge>
  );
}

const STATUS_LABELS: Record<number, { key: string; color: string; hint?: string }> = {
  [ChannelStatus.enabled]: { key: 'enabled', color: 'green' },
  [ChannelStatus.manuallyDisabled]: { key: 'manuallyDisabled', color: 'red', hint: 'manuallyDisabledHint' },
  [ChannelStatus.autoDisabled]: { key: 'autoDisabled', color: 'yellow', hint: 'autoDisabledHint' },
};

export function ChannelStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const label = STATUS_LABELS[status] ?? { key: 'unknown', color: 'gray' };
  const badge = (
    <Badge variant="outline" color={label.color} data-status={status}>
      {t(`channels.statuses.${label.key}`)}
    </Badge>
  );
  if (!label.hint) return badge;
  return (
    <Tooltip label={t(`channels.statuses.${label.hint}`)} withArrow openDelay={50}>
      {badge}
    </Tooltip>
  );
}

/** Seconds in the colour of their speed; the tooltip says when the channel was last tested. */
export function ResponseTimeBadge({ responseTime, testTime }: { responseTime: number; testTime: number }) {
  const { t } = useTranslation();
  const text =
    responseTime === 0
      ? t('channels.notTested')
      : t('channels.seconds', { value: responseSeconds(responseTime) });
  return (
    <Tooltip
      label={testTime ? t('channels.testedAt', { time: renderTimestamp(testTime) }) : t('channels.notTested')}
      withArrow
      openDelay={50}
    >
      <Badge
        variant="light"
        color={responseTimeColor(responseTime)}
        tt="none"
        data-testid="response-time"
        data-color={responseTimeColor(responseTime)}
      >
        {text}
      </Badge>
    </Tooltip>
  );
}

/** Comma-separated groups as badges. */
export function ChannelGroups({ group }: { group: string }) {
  return (
    <Group gap={4} wrap="wrap">
      {splitList(group).map((name) => (
        <Badge key={name} variant="default" tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
