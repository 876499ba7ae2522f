import { Alert, Container } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissNotice, useSiteNotice } from '../../lib/site-notice';

const NoticeContent = lazy(() => import('./NoticeContent'));

/** The site notice as a banner under the header: it stays until closed but covers no control. */
export function NoticeBanner() {
  const { t } = useTranslation();
  const notice = useSiteNotice();
  if (!notice) return null;
  return (
    <Container size="xl" w="100%" pt="md" px={{ base: 'sm', sm: 'md' }}>
      <Alert
        color="indigo"
        variant="light"
        title={t('common.noticeTitle')}
        withCloseButton
        classNames={{ closeButton: 'tap-target' }}
        closeButtonLabel={t('common.closeNotice')}
        onClose={dismissNotice}
        data-testid="site-notice"
      >
        <Suspense fallback={null}>
          <NoticeContent markdown={notice} />
        </Suspense>
      </Alert>
    </Container>
  );
}
