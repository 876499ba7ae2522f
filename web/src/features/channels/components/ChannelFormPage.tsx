import { Alert, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useChannel } from '../api/channel-edit';
import { ChannelForm } from './ChannelForm';

/** /channel/add creates channels; /channel/edit/{id} loads that channel into the same form. */
export function ChannelFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <>
      <PageHeader title={id ? t('channels.editTitle') : t('channels.createTitle')} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={960}>
        {id ? <EditChannel id={Number(id)} /> : <ChannelForm />}
      </Paper>
    </>
  );
}

function EditChannel({ id }: { id: number }) {
  const { t } = useTranslation();
  const channel = useChannel(id);
  if (channel.isLoading) return <PageLoading page={t('pageNames.channel')} />;
  if (!channel.data)
    return (
      <Alert color="red" variant="light">
        <Text size="sm">{t('common.loadFailed')}</Text>
      </Alert>
    );
  return <ChannelForm key={channel.data.id} channel={channel.data} />;
}
