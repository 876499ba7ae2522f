import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageHeader } from '../../../components/PageHeader';
import { useServerStatus } from '../../../lib/server-status';
import { readItem, StorageKey } from '../../../lib/storage';

/** The configured chat link in a frame. */
export function ChatPage() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const link = status?.chat_link || readItem(StorageKey.chatLink);
  if (link) return <iframe src={link} title={t('chat.title')} className="content-frame" />;
  return (
    <>
      <PageHeader title={t('chat.title')} />
      <Paper withBorder p="lg">
        <EmptyPanel title={t('chat.emptyTitle')} text={t('chat.emptyText')} />
      </Paper>
    </>
  );
}
