import { Button, Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { isAdmin, useSessionUser } from '../../../lib/session';
import { usePagedRows } from '../../../lib/use-list-paging';
import { useVideoJobPages } from '../api/video-list';
import { VideoJobCards } from './VideoJobCards';
import { VideoJobsTable } from './VideoJobsTable';

/** Video generation jobs, read only: one's own, or everyone's (with the user) for administrators. */
export function VideoJobsPage() {
  const { t } = useTranslation();
  const everyone = isAdmin(useSessionUser());
  const phone = useMediaQuery('(max-width: 36em)');
  const pages = useVideoJobPages(everyone);
  const { visible, page, total, goTo } = usePagedRows(pages);

  return (
    <>
      <PageHeader title={t('videos.title')}>
        <Button variant="default" onClick={() => void pages.refetch()} loading={pages.isRefetching} mih={44}>
          {t('videos.refresh')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Text size="sm" c="dimmed" mb="sm">
          {t(everyone ? 'videos.introAdmin' : 'videos.introUser')}
        </Text>
        {pages.isLoading ? (
          <PageLoading page={t('pageNames.video')} />
        ) : visible.length === 0 ? (
          <EmptyPanel title={t('videos.empty')} text={t('videos.emptyText')} />
        ) : phone ? (
          <VideoJobCards jobs={visible} withUser={everyone} />
        ) : (
          <VideoJobsTable jobs={visible} withUser={everyone} />
        )}
        <ListPagination total={total} value={page} onChange={(next) => void goTo(next)} />
      </Paper>
    </>
  );
}
