import { SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { RATE_LIMIT_FIELDS, type RateLimits } from '@switchyard/contract/limits';
import type { User } from '@switchyard/contract/users';
import { useTranslation } from 'react-i18next';
import { type LimitValue, type LimitValues, RateLimitInputs } from '../../../components/RateLimitInputs';
import type { FieldErrors } from '../../../lib/validation';

interface UserLimitsProps {
  user: User;
  /** Editing oneself: the limits are shown, not edited (an administrator sets them). */
  self: boolean;
  values: LimitValues;
  onChange: (field: keyof RateLimits, value: LimitValue) => void;
  errors: FieldErrors;
}

/** The limits that cap every key of the user: edited by an administrator, read by the user. */
export function UserLimits({ user, self, values, onChange, errors }: UserLimitsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="user-limits">
      <Title order={5}>{t('limits.title')}</Title>
      <Text size="sm" c="dimmed">
        {self ? t('limits.selfHint') : t('limits.userHint')}
      </Text>
      {self ? (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {RATE_LIMIT_FIELDS.map((field) => (
            <TextInput
              key={field}
              label={t(`limits.${field}`)}
              value={user[field] ? String(user[field]) : t('limits.none')}
              readOnly
              variant="filled"
            />
          ))}
        </SimpleGrid>
      ) : (
        <RateLimitInputs values={values} onChange={onChange} errors={errors} />
      )}
    </Stack>
  );
}
