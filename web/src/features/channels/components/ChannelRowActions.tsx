import { Button, Group } from '@mantine/core';
import { ChannelStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { useDeleteChannel, useTestChannel, useUpdateChannelField } from '../api/channel-actions';
import type { ChannelRow } from '../api/channels-list';

/** Test, enable/disable (status 1 ↔ 2), edit and delete (confirmed). */
export function ChannelRowActions({ channel, wrap = false }: { channel: ChannelRow; wrap?: boolean }) {
  const { t } = useTranslation();
  const test = useTestChannel();
  const update = useUpdateChannelField();
  const remove = useDeleteChannel();
  const enabled = channel.status === ChannelStatus.enabled;
  const pending = update.isPending || remove.isPending;

  return (
    <Group gap={6} wrap={wrap ? 'wrap' : 'nowrap'}>
      <Button size="compact-sm" color="teal" loading={test.isPending} onClick={() => test.mutate(channel)}>
        {t('channels.actions.test')}
      </Button>
      <Button
        size="compact-sm"
        color="gray"
        variant="light"
        disabled={pending}
        onClick={() => update.mutate({ id: channel.id, status: enabled ? 2 : 1 })}
      >
        {enabled ? t('channels.actions.disable') : t('channels.actions.enable')}
      </Button>
      <Button size="compact-sm" variant="default" component={Link} to={`/channel/edit/${channel.id}`}>
        {t('channels.actions.edit')}
      </Button>
      <ConfirmButton
        size="compact-sm"
        color="red"
        variant="light"
        disabled={pending}
        label={t('channels.actions.delete')}
        confirmLabel={t('channels.actions.deleteChannel', { name: channel.name })}
        onConfirm={() => remove.mutate(channel.id)}
      />
    </Group>
  );
}
