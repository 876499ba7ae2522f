import { Group, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { showSuccess } from '../../../lib/toast';
import { useResetUserTwoFactor, useUserTwoFactor } from '../api/two-factor-reset';

/** Root's view of another user's two-factor sign-in, and turning it off for a lost device. */
export function UserTwoFactor({ id }: { id: number }) {
  const { t } = useTranslation();
  const status = useUserTwoFactor(id);
  const reset = useResetUserTwoFactor(id);
  if (!status.data) return null;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={860} mt="md" data-testid="user-two-factor">
      <Title order={3} fz="h4">
        {t('userEdit.twoFactor.title')}
      </Title>
      <Group justify="space-between" mt="xs" gap="sm">
        <Text size="sm">
          {status.data.enabled ? t('userEdit.twoFactor.on') : t('userEdit.twoFactor.off')}
        </Text>
        {status.data.enabled && (
          <ConfirmButton
            variant="light"
            color="red"
            loading={reset.isPending}
            label={t('userEdit.twoFactor.reset')}
            confirmLabel={t('userEdit.twoFactor.confirm')}
            onConfirm={() =>
              reset.mutate(undefined, { onSuccess: () => showSuccess(t('userEdit.twoFactor.done')) })
            }
          />
        )}
      </Group>
    </Paper>
  );
}
