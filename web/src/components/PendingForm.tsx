import { Button, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyPanel } from './EmptyPanel';
import { PageHeader } from './PageHeader';

/** A form screen that a later release fills in: its title and a clear note instead of a blank page. */
export function PendingForm({ title }: { title: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="md" maw={720}>
        <EmptyPanel title={t('pending.title')} text={t('pending.formText')}>
          <Button variant="default" onClick={() => navigate(-1)}>
            {t('common.back')}
          </Button>
        </EmptyPanel>
      </Paper>
    </>
  );
}
