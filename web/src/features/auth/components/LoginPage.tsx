import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { type LoginRedirectState, saveSession } from '../../../lib/session';
import { showSuccess, showWarning } from '../../../lib/toast';
import { isDefaultRootLogin, useLogin } from '../api/login';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { SocialLogin } from './SocialLogin';

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
  const from = (location.state as LoginRedirectState | null)?.from;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { username: username.trim(), password };
    // Both required (the contract's loginInput); checked by hand so that zod stays off the first download.
    if (!input.username || !input.password) {
      setError(t('login.required'));
      return;
    }
    setError(null);
    login.mutate(input, {
      onSuccess: (user) => {
        saveSession(user);
        if (isDefaultRootLogin(input)) {
          showWarning(t('login.rootWarning'));
          navigate('/user/edit');
          return;
        }
        showSuccess(t('login.success'));
        navigate(from && from !== '/login' ? from : '/token');
      },
    });
  };

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
