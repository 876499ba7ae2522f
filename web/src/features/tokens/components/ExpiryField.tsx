import { Button, Group, Stack, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_TIME_FORMAT } from '../../../lib/date-input';
import { QUICK_EXPIRIES, quickExpiry } from './token-form-values';

interface ExpiryFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** Expiry as a typed date-time ("-1" for never) with the quick buttons below it. */
export function ExpiryField({ value, onChange, error }: ExpiryFieldProps) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <TextInput
        label={t('tokens.form.expiry')}
        description={t('tokens.form.expiryHint', { format: DATE_TIME_FORMAT })}
        placeholder={DATE_TIME_FORMAT}
        name="expired_time"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
      />
      <Group gap={6} wrap="wrap">
        {QUICK_EXPIRIES.map((quick) => (
          <Button
            key={quick.key}
            size="compact-sm"
            variant="default"
            onClick={() => onChange(quickExpiry(quick.seconds, dayjs().unix()))}
          >
            {t(`tokens.form.quick.${quick.key}`)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
