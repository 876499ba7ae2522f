import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { ApiError } from '../../../lib/api-client';
import { renderTimestamp } from '../../../lib/format';
import { showSuccess, showWarning } from '../../../lib/toast';
import { useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys';

/** Passkeys, another second factor once two-factor sign-in is on: listed, added, removed. */
export function PasskeyList() {
  const { t } = useTranslation();
  const passkeys = usePasskeys(true);
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim() || t('settings.passkeys.defaultName'), {
      onSuccess: () => {
        setName('');
        showSuccess(t('settings.passkeys.added'));
      },
      // The server's refusals were shown already; the browser's dialog closed or failed.
      onError: (error) => {
        if (!(error instanceof ApiError)) showWarning(t('settings.passkeys.cancelled'));
      },
    });
  };

  return (
    <Stack gap="xs" mt="md" data-testid="passkeys">
      <Title order={4} fz="md">
        {t('settings.passkeys.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('settings.passkeys.text')}
      </Text>
      {passkeys.data?.map((passkey) => (
        <Group key={passkey.id} justify="space-between" gap="xs" wrap="nowrap" data-testid="passkey">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {passkey.name}
            </Text>
            <Text size="xs" c="dimmed">
              {passkey.last_used_at
                ? t('settings.passkeys.lastUsed', { time: renderTimestamp(passkey.last_used_at) })
                : t('settings.passkeys.neverUsed')}
            </Text>
          </Stack>
          <ConfirmButton
            variant="default"
            className="tap-target"
            label={t('settings.passkeys.remove')}
            confirmLabel={t('settings.passkeys.confirmRemove')}
            onConfirm={() =>
              remove.mutate(passkey.id, { onSuccess: () => showSuccess(t('settings.passkeys.removed')) })
            }
          />
        </Group>
      ))}
      <form onSubmit={submit}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('settings.passkeys.name')}
            placeholder={t('settings.passkeys.namePlaceholder')}
            name="passkey_name"
            maxLength={40}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            style={{ flex: '1 1 12rem' }}
          />
          <Button type="submit" variant="light" loading={add.isPending}>
            {t('settings.passkeys.add')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
