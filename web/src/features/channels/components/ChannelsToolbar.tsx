import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { useDeleteDisabledChannels, useTestChannels } from '../api/channel-bulk';

/** Add, test all, test the disabled ones, delete every disabled channel (confirmed), refresh. */
interface ChannelsToolbarProps {
  onRefresh: () => void;
  refreshing: boolean;
  /** After the disabled channels are deleted the list reloads from its first page. */
  onDisabledDeleted: () => void;
}

export function ChannelsToolbar({ onRefresh, refreshing, onDisabledDeleted }: ChannelsToolbarProps) {
  const { t } = useTranslation();
  const test = useTestChannels();
  const deleteDisabled = useDeleteDisabledChannels();
  return (
    <>
      <Button component={Link} to="/channel/add">
        {t('channels.add')}
      </Button>
      <Button
        variant="light"
        loading={test.isPending && test.variables === 'all'}
        onClick={() => test.mutate('all')}
      >
        {t('channels.toolbar.testAll')}
      </Button>
      <Button
        variant="light"
        loading={test.isPending && test.variables === 'disabled'}
        onClick={() => test.mutate('disabled')}
      >
        {t('channels.toolbar.testDisabled')}
      </Button>
      <ConfirmButton
        variant="light"
        color="red"
        loading={deleteDisabled.isPending}
        label={t('channels.toolbar.deleteDisabled')}
        confirmLabel={t('channels.toolbar.confirmDeleteDisabled')}
        onConfirm={() => deleteDisabled.mutate(undefined, { onSuccess: onDisabledDeleted })}
      />
      <Button variant="default" loading={refreshing} onClick={onRefresh}>
        {t('common.refresh')}
      </Button>
    </>
  );
}
