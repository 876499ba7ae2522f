import { Anchor, Paper, Text } from '@mantine/core';
import { SOURCE_URL } from '@switchyard/contract/status';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { RichContent } from '../../../components/RichContent';
import { useAboutContent } from '../api/content';

export function AboutPage() {
  const { t } = useTranslation();
  const about = useAboutContent();
  if (about.isLoading) return <PageLoading page={t('pageNames.about')} />;
  const reference = (
    <Text size="sm" mt="md" data-testid="api-reference-link">
      {t('about.apiReferenceText')}{' '}
      <Anchor component={Link} to="/api-reference">
        {t('about.apiReference')}
      </Anchor>
    </Text>
  );
  if (about.data) {
    return (
      <>
        <RichContent content={about.data} title={t('about.title')} />
        {reference}
      </>
    );
  }
  return (
    <>
      <PageHeader title={t('about.title')} />
      <Paper withBorder p="lg">
        <EmptyPanel title={t('about.emptyTitle')} text={t('about.emptyText')}>
          <Text size="sm">
            {t('about.repository')}{' '}
            <Anchor href={SOURCE_URL} target="_blank" rel="noreferrer">
              {SOURCE_URL}
            </Anchor>
          </Text>
          {reference}
        </EmptyPanel>
      </Paper>
    </>
  );
}
