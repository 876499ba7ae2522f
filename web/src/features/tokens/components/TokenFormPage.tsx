import { Alert, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useToken } from '../api/token-edit';
import { TokenForm } from './TokenForm';

/** /token/add creates a token; /token/edit/{id} loads that token into the same form. */
export function TokenFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <>
      <PageHeader title={id ? t('tokens.form.editTitle') : t('tokens.form.createTitle')} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={860}>
        {id ? <EditToken id={Number(id)} /> : <TokenForm />}
      </Paper>
    </>
  );
}

function EditToken({ id }: { id: number }) {
  const { t } = useTranslation();
  const token = useToken(id);
  if (token.isLoading) return <PageLoading page={t('pageNames.token')} />;
  if (!token.data)
    return (
      <Alert color="red" variant="light">
        <Text size="sm">{t('common.loadFailed')}</Text>
      </Alert>
    );
  return <TokenForm key={token.data.id} token={token.data} />;
}
