import { Badge, Group, Tooltip } from '@mantine/core';
import { channelTypeById, channelTypeLabel } from '@switchyard/contract/channel-types';
import type { Channel } from '@switchyard/contract/channels';
import { isErrorCode, renderError } from '@switchyard/contract/render-error';
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

/**
 * Seconds in the colour of their speed; red when the last test failed, the reason in the tooltip
 * (hover, or tap on a phone). The tooltip otherwise says when the channel was last tested.
 */
/** Why the last test failed, in the console's language when the server gave its code; empty when it passed. */
export function testFailureText(
  channel: Pick<Channel, 'test_error' | 'test_failure'>,
  language: string,
): string {
  const failure = channel.test_failure;
  if (!failure || !isErrorCode(failure.code)) return channel.test_error;
  return renderError(failure.code, failure.params, language === 'zh' ? 'zh' : 'en');
}

export function ResponseTimeBadge({
  channel,
}: {
  channel: Pick<Channel, 'response_time' | 'test_time' | 'test_error' | 'test_failure'>;
}) {
  const { t, i18n } = useTranslation();
  const { response_time: responseTime, test_time: testTime } = channel;
  const failure = testFailureText(channel, i18n.language);
  const text =
    responseTime === 0 && !failure
      ? t('channels.notTested')
      : t('channels.seconds', { value: responseSeconds(responseTime) });
  const when = testTime
    ? t('channels.testedAt', { time: renderTimestamp(testTime) })
    : t('channels.notTested');
  const color = failure ? 'red' : responseTimeColor(responseTime);
  return (
    <Tooltip
      label={failure ? t('channels.testFailedAt', { when, reason: failure }) : when}
      withArrow
      openDelay={50}
      events={{ hover: true, focus: true, touch: true }}
      multiline
      maw={360}
    >
      <Badge
        variant="light"
        color={color}
        tt="none"
        data-testid="response-time"
        data-color={color}
        data-failed={failure ? true : undefined}
        tabIndex={0}
      >
        {failure ? t('channels.testFailedBadge', { value: text }) : text}
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
