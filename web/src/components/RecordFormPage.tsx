import { Alert, Paper, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from './PageHeader';
import { PageLoading } from './PageLoading';

interface RecordFormPageProps<T extends { id: number }> {
  titles: { create: string; edit: string };
  /** The page's name in the loading notice. */
  pageName: string;
  maw: number;
  /** The query of one record (a hook, called with the route's id). */
  useRecord: (id: number) => UseQueryResult<T>;
  /** The form: empty to create, filled with the record to edit it. */
  form: (record?: T) => ReactNode;
}

/** `/x/add` shows the empty form; `/x/edit/{id}` loads that record into the same form. */
export function RecordFormPage<T extends { id: number }>({
  titles,
  pageName,
  maw,
  useRecord,
  form,
}: RecordFormPageProps<T>) {
  const { id } = useParams();
  return (
    <>
      <PageHeader title={id ? titles.edit : titles.create} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={maw}>
        {id ? <EditRecord id={Number(id)} pageName={pageName} useRecord={useRecord} form={form} /> : form()}
      </Paper>
    </>
  );
}

function EditRecord<T extends { id: number }>({
  id,
  pageName,
  useRecord,
  form,
}: { id: number } & Pick<RecordFormPageProps<T>, 'pageName' | 'useRecord' | 'form'>) {
  const { t } = useTranslation();
  const record = useRecord(id);
  if (record.isLoading) return <PageLoading page={pageName} />;
  if (!record.data)
    return (
      <Alert color="red" variant="light">
        <Text size="sm">{t('common.loadFailed')}</Text>
      </Alert>
    );
  // A new key per record gives the form fresh state when the route moves to another one.
  return <Fragment key={record.data.id}>{form(record.data)}</Fragment>;
}
