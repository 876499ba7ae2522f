import { Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import { createUserInput } from '@switchyard/contract/users';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormButtons } from '../../../components/FormButtons';
import { PageHeader } from '../../../components/PageHeader';
import { showSuccess } from '../../../lib/toast';
import { type FieldErrors, fieldErrors, USER_MESSAGES } from '../../../lib/validation';
import { useCreateUser } from '../api/user-edit';

export function UserAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateUser();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Both fields are required: with either empty, nothing is sent.
    if (!username.trim() || !password) {
      setErrors({
        username: username.trim() ? undefined : t('validation.user.username.required'),
        password: password ? undefined : t('register.required'),
      });
      return;
    }
    const parsed = createUserInput.safeParse({
      username: username.trim(),
      display_name: displayName,
      password,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, t, USER_MESSAGES));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: () => {
        showSuccess(t('userAdd.created'));
        navigate('/user');
      },
    });
  };

  return (
    <>
      <PageHeader title={t('userAdd.title')} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={640}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('userEdit.username')}
              placeholder={t('userAdd.usernamePlaceholder')}
              name="username"
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
              error={errors.username}
              withAsterisk
            />
            <TextInput
              label={t('userEdit.displayName')}
              placeholder={t('userAdd.displayNamePlaceholder')}
              name="display_name"
              value={displayName}
              onChange={(event) => setDisplayName(event.currentTarget.value)}
              error={errors.display_name}
            />
            <PasswordInput
              label={t('userEdit.password')}
              placeholder={t('userAdd.passwordPlaceholder')}
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={errors.password}
              withAsterisk
            />
            <FormButtons saving={create.isPending} onCancel={() => navigate('/user')} />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
