import { Button } from '@mantine/core';
import { ChannelStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';
import { RowActions, RowButton, RowDeleteButton, RowEditButton } from '../../../components/RowActions';
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
    <RowActions wrap={wrap}>
      <Button size="compact-sm" color="teal" loading={test.isPending} onClick={() => test.mutate(channel)}>
        {t('channels.actions.test')}
      </Button>
      <RowButton
        label={enabled ? t('channels.actions.disable') : t('channels.actions.enable')}
        disabled={pending}
        onClick={() => update.mutate({ id: channel.id, status: enabled ? 2 : 1 })}
      />
      <RowEditButton label={t('channels.actions.edit')} to={`/channel/edit/${channel.id}`} />
      <RowDeleteButton
        disabled={pending}
        label={t('channels.actions.delete')}
        confirmLabel={t('channels.actions.deleteChannel', { name: channel.name })}
        onConfirm={() => remove.mutate(channel.id)}
      />
    </RowActions>
  );
}
