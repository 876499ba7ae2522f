import { Paper, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { clearSession } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';
import { useSignOutEverywhere } from '../api/personal';

/** Ends every session of the account (this browser's too), then goes to the login page. */
export function SignOutEverywhere() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useSignOutEverywhere();

  const confirm = () =>
    signOut.mutate(undefined, {
      onSuccess: () => {
        showSuccess(t('settings.signOutEverywhere.done'));
        clearSession();
        queryClient.clear();
        navigate('/login');
      },
    });

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="sign-out-everywhere">
      <Title order={3} fz="h4">
        {t('settings.signOutEverywhere.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        {t('settings.signOutEverywhere.text')}
      </Text>
      <ConfirmButton
        variant="light"
        mt="md"
        loading={signOut.isPending}
        label={t('settings.signOutEverywhere.button')}
        confirmLabel={t('settings.signOutEverywhere.confirm')}
        onConfirm={confirm}
      />
    </Paper>
  );
}
