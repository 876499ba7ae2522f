import { Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import type { SessionUser } from '../../../lib/session';
import { showWarning } from '../../../lib/toast';
import { usePasskeyStep, useSecondStep } from '../api/login';
import { AuthCard } from './AuthCard';

/** The second sign-in step: a code from the authenticator app, a recovery code, or a passkey. */
export function TwoFactorStep({
  passkey,
  onSignedIn,
  onBack,
}: {
  /** The user has a passkey: offered beside the code. */
  passkey: boolean;
  onSignedIn: (user: SessionUser) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const secondStep = useSecondStep();
  const passkeyStep = usePasskeyStep();
  const signInWithPasskey = () =>
    passkeyStep.mutate(undefined, {
      onSuccess: onSignedIn,
      // The server's refusals were shown already; the browser's dialog closed or failed.
      onError: (failure) => {
        if (!(failure instanceof ApiError)) showWarning(t('login.passkeyCancelled'));
      },
    });
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
          {passkey && (
            <>
              <Divider label={t('login.twoFactorOr')} labelPosition="center" />
              <Button variant="default" fullWidth loading={passkeyStep.isPending} onClick={signInWithPasskey}>
                {t('login.twoFactorPasskey')}
              </Button>
            </>
          )}
          <Button variant="subtle" fullWidth onClick={onBack}>
            {t('login.twoFactorBack')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
