import { Box, Group, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { describeError } from '../../../lib/api-client';
import { parseDateTime } from '../../../lib/date-input';
import { renderTimestamp } from '../../../lib/format';
import { showError, showSuccess } from '../../../lib/toast';
import { useCleanLogs } from '../api/log-cleanup';

/** The default target: 30 days back (spec section 9). */
export const LOG_CLEANUP_DEFAULT_AGE = 2592000;

const toInput = (seconds: number) => renderTimestamp(seconds).replace(' ', 'T');

/** "Clean history logs": every log older than the chosen time is deleted (admins; part of the logging section). */
export function LogCleanup() {
  const { t } = useTranslation();
  const clean = useCleanLogs();
  const [target, setTarget] = useState(() =>
    toInput(Math.floor(Date.now() / 1000) - LOG_CLEANUP_DEFAULT_AGE),
  );
  const [invalid, setInvalid] = useState(false);

  const run = () => {
    const seconds = parseDateTime(target);
    setInvalid(seconds === null);
    if (seconds === null) return;
    clean.mutate(seconds, {
      onSuccess: (count) => showSuccess(t('settings.logCleanup.cleared', { count })),
      onError: (error) => showError(t('settings.logCleanup.failed', { message: describeError(error) })),
    });
  };

  return (
    <Box data-testid="log-cleanup">
      <Title order={4} fz="h5">
        {t('settings.logCleanup.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        {t('settings.logCleanup.text')}
      </Text>
      <Group mt="md" align="flex-end" gap="sm">
        <TextInput
          type="datetime-local"
          step={1}
          name="log_target_time"
          label={t('settings.logCleanup.target')}
          value={target}
          onChange={(event) => setTarget(event.currentTarget.value)}
          error={invalid ? t('settings.logCleanup.badTime') : undefined}
          style={{ flex: '1 1 220px', maxWidth: 320 }}
        />
        <ConfirmButton
          color="red"
          variant="light"
          loading={clean.isPending}
          label={t('settings.logCleanup.button')}
          confirmLabel={t('settings.logCleanup.confirm')}
          onConfirm={run}
        />
      </Group>
    </Box>
  );
}
