import { Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clearSession, isRoot, useSessionUser } from '../../../lib/session';
import { showError, showSuccess } from '../../../lib/toast';
import { useDeleteSelf } from '../api/personal';

/** Deleting one's own account: the own username must be typed to confirm. */
export function DeleteAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  const remove = useDeleteSelf();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user || typed.trim() !== user.username) {
      const message = t('settings.deleteAccount.mismatch');
      setError(message);
      showError(message);
      return;
    }
    remove.mutate(undefined, {
      onSuccess: () => {
        showSuccess(t('settings.deleteAccount.done'));
        clearSession();
        navigate('/login');
      },
    });
  };

  return (
    <Paper
      withBorder
      p={{ base: 'sm', sm: 'md' }}
      data-testid="danger-card"
      style={{ borderColor: 'var(--mantine-color-red-3)' }}
    >
      <Title order={3} fz="h4" c="red">
        {t('settings.deleteAccount.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        {isRoot(user) ? t('settings.deleteAccount.rootText') : t('settings.deleteAccount.text')}
      </Text>
      <Button color="red" variant="light" mt="md" disabled={isRoot(user)} onClick={() => setOpened(true)}>
        {t('settings.deleteAccount.button')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('settings.deleteAccount.dialogTitle')}
        centered
      >
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{t('settings.deleteAccount.warning')}</Text>
            <TextInput
              name="confirm_username"
              label={t('settings.deleteAccount.typeName', { username: user?.username ?? '' })}
              value={typed}
              error={error || undefined}
              onChange={(event) => {
                setTyped(event.currentTarget.value);
                setError('');
              }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" color="red" loading={remove.isPending}>
                {t('settings.deleteAccount.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
