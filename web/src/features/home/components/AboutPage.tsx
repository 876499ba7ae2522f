import { Anchor, Paper, Stack, Text } from '@mantine/core';
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
    <Text size="sm" data-testid="api-reference-link">
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
        <Paper withBorder p="md" mt="md">
          {reference}
        </Paper>
      </>
    );
  }
  return (
    <>
      <PageHeader title={t('about.title')} />
      <Paper withBorder p="lg">
        <EmptyPanel title={t('about.emptyTitle')} text={t('about.emptyText')}>
          <Stack gap="xs" align="center">
            <Text size="sm">
              {t('about.repository')}{' '}
              <Anchor href={SOURCE_URL} target="_blank" rel="noreferrer">
                {SOURCE_URL}
              </Anchor>
            </Text>
            {reference}
          </Stack>
        </EmptyPanel>
      </Paper>
    </>
  );
}
