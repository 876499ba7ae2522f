import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Turnstile } from '../../../components/Turnstile';
import { useServerStatus } from '../../../lib/server-status';
import { showInfo, showSuccess } from '../../../lib/toast';
import { useCountdown } from '../../../lib/use-countdown';
import { useSendResetMail } from '../api/password-reset';
import { AuthCard } from './AuthCard';

export const RESET_RETRY_SECONDS = 30;

export function ResetPage() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const send = useSendResetMail();
  const countdown = useCountdown(RESET_RETRY_SECONDS);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [turnstileToken, setTurnstileToken] = useState('');
  const turnstileOn = Boolean(status?.turnstile_check);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError(t('reset.emailRequired'));
      return;
    }
    if (turnstileOn && !turnstileToken) {
      showInfo(t('reset.turnstileWait'));
      return;
    }
    setError(undefined);
    countdown.start();
    send.mutate(
      { email: email.trim(), turnstile: turnstileToken },
      { onSuccess: () => showSuccess(t('reset.sent')) },
    );
  };

  const waiting = countdown.remaining > 0;
  return (
    <AuthCard title={t('reset.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            type="email"
            label={t('reset.email')}
            description={t('reset.notice')}
            name="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={error}
            withAsterisk
          />
          {turnstileOn && status?.turnstile_site_key && (
            <Turnstile siteKey={status.turnstile_site_key} onToken={setTurnstileToken} />
          )}
          <Button type="submit" fullWidth disabled={waiting} loading={send.isPending}>
            {waiting ? t('reset.retry', { countdown: countdown.remaining }) : t('reset.button')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/login" size="sm">
          {t('reset.backToLogin')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
