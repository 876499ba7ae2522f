import { Alert, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useRedemption } from '../api/redemption-edit';
import { RedemptionForm } from './RedemptionForm';

/** /redemption/add creates codes; /redemption/edit/{id} loads one code into the same form. */
export function RedemptionFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <>
      <PageHeader title={id ? t('redemptions.form.editTitle') : t('redemptions.form.createTitle')} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={860}>
        {id ? <EditRedemption id={Number(id)} /> : <RedemptionForm />}
      </Paper>
    </>
  );
}

function EditRedemption({ id }: { id: number }) {
  const { t } = useTranslation();
  const code = useRedemption(id);
  if (code.isLoading) return <PageLoading page={t('pageNames.redemption')} />;
  if (!code.data)
    return (
      <Alert color="red" variant="light">
        <Text size="sm">{t('common.loadFailed')}</Text>
      </Alert>
    );
  return <RedemptionForm key={code.data.id} code={code.data} />;
}
