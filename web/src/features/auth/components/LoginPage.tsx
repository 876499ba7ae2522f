import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { type LoginRedirectState, type SessionUser, saveSession } from '../../../lib/session';
import { showSuccess, showWarning } from '../../../lib/toast';
import { isDefaultRootLogin, useLogin } from '../api/login';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { SocialLogin } from './SocialLogin';
import { TwoFactorStep } from './TwoFactorStep';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const expired = searchParams.has('expired');
  const redirect = location.state as LoginRedirectState | null;
  const from = redirect?.from;
  // The password (or an OAuth callback) passed; the two-factor code is still wanted.
  const [secondStep, setSecondStep] = useState<{ passkey: boolean } | null>(
    redirect?.twoFactor ? { passkey: redirect.passkey === true } : null,
  );
  const [defaultRoot, setDefaultRoot] = useState(false);

  const signedIn = (user: SessionUser) => {
    saveSession(user);
    if (defaultRoot) {
      showWarning(t('login.rootWarning'));
      navigate('/user/edit');
      return;
    }
    showSuccess(t('login.success'));
    navigate(from && from !== '/login' ? from : '/token');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { username: username.trim(), password };
    // Both required (the contract's loginInput); checked by hand so that zod stays off the first download.
    if (!input.username || !input.password) {
      setError(t('login.required'));
      return;
    }
    setError(null);
    setDefaultRoot(isDefaultRootLogin(input));
    login.mutate(input, {
      onSuccess: (result) => {
        if ('twoFactor' in result) {
          setSecondStep({ passkey: result.passkey });
          return;
        }
        if (isDefaultRootLogin(input)) {
          saveSession(result.user);
          showWarning(t('login.rootWarning'));
          navigate('/user/edit');
          return;
        }
        signedIn(result.user);
      },
    });
  };

  if (secondStep) {
    return (
      <TwoFactorStep
        passkey={secondStep.passkey}
        onSignedIn={signedIn}
        onBack={() => {
          setSecondStep(null);
          setPassword('');
          navigate('/login', { replace: true, state: from ? { from } : null });
        }}
      />
    );
  }

  return (
    <AuthCard title={t('login.title')}>
      {expired && (
        <Alert color="red" variant="light" data-testid="login-expired">
          {t('errors.loginExpired')}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('login.username')}
            name="username"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            error={error && !username.trim() ? error : undefined}
            withAsterisk
          />
          <PasswordInput
            label={t('login.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={error && !password ? error : undefined}
            withAsterisk
          />
          <Button type="submit" fullWidth loading={login.isPending}>
            {t('login.button')}
          </Button>
        </Stack>
      </form>
      <Group justify="space-between" gap="xs">
        <AuthLink question={t('login.forgot')} label={t('login.reset')} to="/reset" />
        <AuthLink question={t('login.noAccount')} label={t('login.register')} to="/register" />
      </Group>
      <SocialLogin />
    </AuthCard>
  );
}
