import { Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChannelRow } from '../api/channels-list';
import { ChannelBalance } from './ChannelBalance';
import { ChannelOrderInput } from './ChannelOrderInput';
import { ChannelRowActions } from './ChannelRowActions';
import { ChannelGroups, ChannelStatusBadge, ChannelTypeBadge, ResponseTimeBadge } from './channel-labels';

/** The channel list on phones: one card per channel instead of a wide table. */
export function ChannelCards({ channels }: { channels: ChannelRow[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="channels-cards">
      {channels.map((channel) => (
        <Card key={channel.id} withBorder padding="sm" data-channel={channel.name} data-id={channel.id}>
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              #{channel.id} {channel.name || t('channels.noName')}
            </Text>
            <ChannelStatusBadge status={channel.status} />
          </Group>
          <Group gap={6} mt="xs" wrap="wrap">
            <ChannelTypeBadge type={channel.type} />
            <ChannelGroups group={channel.group} />
          </Group>
          <Group gap="md" mt="xs" wrap="wrap">
            <Field label={t('channels.columns.responseTime')}>
              <ResponseTimeBadge channel={channel} />
            </Field>
            <Field label={t('channels.columns.balance')}>
              <ChannelBalance channel={channel} />
            </Field>
          </Group>
          <Group gap="md" mt="xs" wrap="wrap">
            <Field label={t('channels.columns.priority')}>
              <ChannelOrderInput channel={channel} field="priority" />
            </Field>
            <Field label={t('channels.columns.weight')}>
              <ChannelOrderInput channel={channel} field="weight" />
            </Field>
          </Group>
          <Group mt="sm">
            <ChannelRowActions channel={channel} wrap />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}
