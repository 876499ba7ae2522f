import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { copyText } from '../../../lib/clipboard';
import { showError, showNotice } from '../../../lib/toast';
import { useConfirmReset } from '../api/password-reset';
import { AuthCard } from './AuthCard';

export function ResetConfirmPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email') ?? '';
  const token = searchParams.get('token') ?? '';
  const confirm = useConfirmReset();
  const [newPassword, setNewPassword] = useState('');
  const done = newPassword !== '';

  const submit = () => {
    confirm.mutate(
      { email, token },
      {
        onSuccess: async (password) => {
          setNewPassword(password);
          if (await copyText(password)) showNotice(t('resetConfirm.copied', { password }));
          else showError(t('errors.copyFailed'));
        },
      },
    );
  };

  return (
    <AuthCard title={t('resetConfirm.title')}>
      <Stack gap="md">
        {(!email || !token) && <Alert color="yellow">{t('resetConfirm.invalidLink')}</Alert>}
        <TextInput label={t('resetConfirm.email')} value={email} readOnly />
        {done && (
          <>
            <TextInput
              label={t('resetConfirm.newPassword')}
              value={newPassword}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              data-testid="new-password"
            />
            <Alert color="blue" variant="light">
              {t('resetConfirm.notice')}
            </Alert>
          </>
        )}
        <Button fullWidth onClick={submit} disabled={done || !email || !token} loading={confirm.isPending}>
          {done ? t('resetConfirm.done') : t('resetConfirm.button')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
