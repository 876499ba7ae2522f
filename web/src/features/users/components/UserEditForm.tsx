import { NumberInput, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type User, updateSelfInput, updateUserInput } from '@switchyard/contract/users';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormButtons } from '../../../components/FormButtons';
import { type LimitValues, limitNumber, limitValue } from '../../../components/RateLimitInputs';
import { renderQuota } from '../../../lib/format';
import { getSessionUser, saveSession } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';
import { type FieldErrors, fieldErrors, USER_MESSAGES } from '../../../lib/validation';
import { type UserChange, useGroups, useUpdateUser } from '../api/user-edit';
import { UserLimits } from './UserLimits';

interface UserEditFormProps {
  user: User;
  /** Editing oneself: self endpoints, no group or quota. */
  self: boolean;
}

export function UserEditForm({ user, self }: UserEditFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const update = useUpdateUser();
  const groups = useGroups(!self);
  const [username, setUsername] = useState(user.username);
  const [displayName, setDisplayName] = useState(user.display_name);
  const [password, setPassword] = useState('');
  const [group, setGroup] = useState(user.group || 'default');
  const [quota, setQuota] = useState<number>(user.quota);
  const [limits, setLimits] = useState<LimitValues>(() => ({
    rpm_limit: limitValue(user.rpm_limit),
    tpm_limit: limitValue(user.tpm_limit),
    concurrency_limit: limitValue(user.concurrency_limit),
  }));
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const common = { username: username.trim(), display_name: displayName, password };
    let change: UserChange;
    if (self) {
      const parsed = updateSelfInput.safeParse(common);
      if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues, t, USER_MESSAGES));
      change = { self: true, input: parsed.data };
    } else {
      const parsed = updateUserInput.safeParse({
        ...common,
        id: user.id,
        group,
        quota: Math.trunc(quota),
        rpm_limit: limitNumber(limits.rpm_limit),
        tpm_limit: limitNumber(limits.tpm_limit),
        concurrency_limit: limitNumber(limits.concurrency_limit),
      });
      if (!parsed.success)
        return setErrors(fieldErrors(parsed.error.issues, t, [...USER_MESSAGES, 'limits.errors']));
      change = { self: false, input: parsed.data };
    }
    setErrors({});
    update.mutate(change, {
      onSuccess: () => {
        showSuccess(t('userEdit.updated'));
        setPassword('');
        const session = getSessionUser();
        if (self && session)
          saveSession({ ...session, username: common.username, display_name: common.display_name });
      },
    });
  };

  const groupOptions = Array.from(new Set([...(groups.data ?? []), group])).map((name) => ({
    value: name,
    label: name,
  }));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('userEdit.username')}
            placeholder={t('userEdit.usernamePlaceholder')}
            name="username"
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            error={errors.username}
          />
          <TextInput
            label={t('userEdit.displayName')}
            placeholder={t('userEdit.displayNamePlaceholder')}
            name="display_name"
            value={displayName}
            onChange={(event) => setDisplayName(event.currentTarget.value)}
            error={errors.display_name}
          />
        </SimpleGrid>
        <PasswordInput
          label={t('userEdit.password')}
          placeholder={t('userEdit.passwordPlaceholder')}
          description={t('userEdit.passwordHint')}
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={errors.password}
        />
        {!self && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Select
              label={t('userEdit.group')}
              placeholder={t('userEdit.groupPlaceholder')}
              description={t('userEdit.groupHint')}
              data={groupOptions}
              value={group}
              allowDeselect={false}
              onChange={(value) => setGroup(value ?? 'default')}
              error={errors.group}
            />
            <NumberInput
              label={t('userEdit.quota')}
              placeholder={t('userEdit.quotaPlaceholder')}
              description={t('userEdit.quotaEquivalent', { amount: renderQuota(quota) })}
              name="quota"
              min={0}
              step={1}
              allowDecimal={false}
              value={quota}
              onChange={(value) => setQuota(typeof value === 'number' ? value : Number(value) || 0)}
              error={errors.quota}
            />
          </SimpleGrid>
        )}
        <UserLimits
          user={user}
          self={self}
          values={limits}
          onChange={(field, value) => {
            setLimits((current) => ({ ...current, [field]: value }));
            setErrors((current) => ({ ...current, [field]: undefined }));
          }}
          errors={errors}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <TextInput
            label={t('userEdit.githubId')}
            value={user.github_id || t('userEdit.notBound')}
            readOnly
            variant="filled"
          />
          <TextInput
            label={t('userEdit.wechatId')}
            value={user.wechat_id || t('userEdit.notBound')}
            readOnly
            variant="filled"
          />
          <TextInput
            label={t('userEdit.email')}
            value={user.email || t('userEdit.notBound')}
            readOnly
            variant="filled"
          />
        </SimpleGrid>
        <FormButtons saving={update.isPending} onCancel={() => navigate(-1)} />
      </Stack>
    </form>
  );
}
