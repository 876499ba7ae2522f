import { Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../../../lib/session';
import { useSecondStep } from '../api/login';
import { AuthCard } from './AuthCard';

/** The second sign-in step: a code from the authenticator app, or a recovery code. */
export function TwoFactorStep({
  onSignedIn,
  onBack,
}: {
  onSignedIn: (user: SessionUser) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const secondStep = useSecondStep();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('login.twoFactorRequired'));
      return;
    }
    setError(null);
    secondStep.mutate(code.trim(), { onSuccess: onSignedIn, onError: () => setCode('') });
  };

  return (
    <AuthCard title={t('login.twoFactorTitle')}>
      <form onSubmit={submit} noValidate data-testid="two-factor-step">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('login.twoFactorText')}
          </Text>
          <TextInput
            label={t('login.twoFactorCode')}
            name="code"
            autoComplete="one-time-code"
            autoFocus
            maxLength={32}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
            withAsterisk
          />
          <Button type="submit" fullWidth loading={secondStep.isPending}>
            {t('login.twoFactorButton')}
          </Button>
          <Button variant="subtle" fullWidth onClick={onBack}>
            {t('login.twoFactorBack')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
