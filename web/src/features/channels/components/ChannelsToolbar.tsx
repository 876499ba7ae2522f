import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { useDeleteDisabledChannels, useTestChannels } from '../api/channel-bulk';

/** The channel sets "test" runs on, with their button labels. */
const TEST_SETS = [
  ['all', 'testAll'],
  ['disabled', 'testDisabled'],
] as const;

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
      {TEST_SETS.map(([which, label]) => (
        <Button
          key={which}
          variant="light"
          loading={test.isPending && test.variables === which}
          onClick={() => test.mutate(which)}
        >
          {t(`channels.toolbar.${label}`)}
        </Button>
      ))}
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
