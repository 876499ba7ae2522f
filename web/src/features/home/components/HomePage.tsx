import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/PageLoading';
import { RichContent } from '../../../components/RichContent';
import { useHomePageContent } from '../api/content';
import { DefaultHome } from './DefaultHome';

export function HomePage() {
  const { t } = useTranslation();
  const content = useHomePageContent();
  if (content.isLoading) return <PageLoading page={t('pageNames.home')} />;
  if (content.isError) {
    return (
      <>
        <Alert color="red" variant="light" mb="lg">
          {t('home.loadFailed')}
        </Alert>
        <DefaultHome />
      </>
    );
  }
  if (!content.data) return <DefaultHome />;
  return <RichContent content={content.data} title={t('nav.home')} />;
}
