import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { registerInput } from '@switchyard/contract/users';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Turnstile } from '../../../components/Turnstile';
import { useServerStatus } from '../../../lib/server-status';
import { readItem, StorageKey, writeItem } from '../../../lib/storage';
import { showInfo, showSuccess } from '../../../lib/toast';
import { type FieldErrors, fieldErrors, USER_MESSAGES } from '../../../lib/validation';
import { useRegister } from '../api/register';
import { AuthCard } from './AuthCard';
import { AuthLink } from './AuthLink';
import { EmailCodeFields } from './EmailCodeFields';

interface RegisterForm {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
}

const EMPTY: RegisterForm = { username: '', password: '', password2: '', email: '', verification_code: '' };

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const status = useServerStatus();
  const register = useRegister();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [turnstileToken, setTurnstileToken] = useState('');
  const turnstileOn = Boolean(status?.turnstile_check);
  const emailOn = Boolean(status?.email_verification);
  const affFromUrl = searchParams.get('aff');

  // An invitation code from the link is kept until registration sends it.
  useEffect(() => {
    if (affFromUrl) writeItem(StorageKey.aff, affFromUrl);
  }, [affFromUrl]);
  const affCode = affFromUrl || readItem(StorageKey.aff) || '';

  const set = (field: keyof RegisterForm) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  /** A text field's name, value, change and error. */
  const bound = (field: keyof RegisterForm) => ({
    name: field,
    value: form[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(field)(event.currentTarget.value),
    error: errors[field],
  });

  const reject = (field: keyof RegisterForm, message: string) => {
    setErrors({ [field]: message });
    showInfo(message);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const username = form.username.trim();
    if (!username || !form.password) {
      setErrors({
        username: username ? undefined : t('register.required'),
        password: form.password ? undefined : t('register.required'),
      });
      return;
    }
    const input = {
      username,
      password: form.password,
      password2: form.password2,
      email: emailOn ? form.email : '',
      verification_code: emailOn ? form.verification_code : '',
      aff_code: affCode,
    };
    const parsed = registerInput.safeParse(input);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error.issues, t, USER_MESSAGES);
      if (errors.password) return reject('password', errors.password);
      setErrors(errors);
      return;
    }
    if (form.password !== form.password2) return reject('password2', t('register.passwordMismatch'));
    if (turnstileOn && !turnstileToken) {
      showInfo(t('register.turnstileWait'));
      return;
    }
    setErrors({});
    register.mutate(
      { input: parsed.data, turnstile: turnstileToken },
      {
        onSuccess: () => {
          navigate('/login');
          showSuccess(t('register.success'));
        },
      },
    );
  };

  return (
    <AuthCard title={t('register.title')}>
      {affCode && (
        <Text size="sm" c="dimmed" ta="center">
          {t('register.invited', { code: affCode })}
        </Text>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('register.username')}
            description={t('register.usernameHint')}
            autoComplete="username"
            {...bound('username')}
            withAsterisk
          />
          <PasswordInput
            label={t('register.password')}
            description={t('register.passwordHint')}
            autoComplete="new-password"
            {...bound('password')}
            withAsterisk
          />
          <PasswordInput
            label={t('register.password2')}
            autoComplete="new-password"
            {...bound('password2')}
            withAsterisk
          />
          {emailOn && (
            <EmailCodeFields
              email={form.email}
              code={form.verification_code}
              onEmail={set('email')}
              onCode={set('verification_code')}
              turnstile={turnstileOn && !turnstileToken ? null : turnstileToken}
            />
          )}
          {turnstileOn && status?.turnstile_site_key && (
            <Turnstile siteKey={status.turnstile_site_key} onToken={setTurnstileToken} />
          )}
          <Button type="submit" fullWidth loading={register.isPending}>
            {t('register.button')}
          </Button>
        </Stack>
      </form>
      <AuthLink question={t('register.hasAccount')} label={t('register.login')} to="/login" centered />
    </AuthCard>
  );
}
