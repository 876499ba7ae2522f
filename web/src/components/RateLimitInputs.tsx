import { NumberInput, SimpleGrid } from '@mantine/core';
import { RATE_LIMIT_FIELDS, type RateLimits } from '@switchyard/contract/limits';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../lib/validation';

/** What a limit field holds: a whole number, or '' for no limit. */
export type LimitValue = number | string;
export type LimitValues = Record<keyof RateLimits, LimitValue>;

/** A limit as the form shows it: empty for none (0). */
export const limitValue = (limit: number | undefined): LimitValue => (limit ? limit : '');

/** A limit as the server takes it: 0 for an empty field. */
export const limitNumber = (value: LimitValue): number => {
  const parsed = typeof value === 'number' ? value : Number(String(value).trim() || 0);
  return Number.isFinite(parsed) ? parsed : Number.NaN;
};

interface RateLimitInputsProps {
  values: LimitValues;
  onChange: (field: keyof RateLimits, value: LimitValue) => void;
  errors: FieldErrors;
  /** The user's limits that cap a key's (0: none), shown under each field. */
  caps?: RateLimits;
}

/** Requests per minute, tokens per minute and concurrent requests; empty means no limit. */
export function RateLimitInputs({ values, onChange, errors, caps }: RateLimitInputsProps) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      {RATE_LIMIT_FIELDS.map((field) => (
        <NumberInput
          key={field}
          label={t(`limits.${field}`)}
          placeholder={t('limits.none')}
          description={caps?.[field] ? t('limits.capped', { max: caps[field] }) : t('limits.emptyIsNone')}
          name={field}
          min={0}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={false}
          value={values[field]}
          onChange={(value) => onChange(field, value)}
          error={errors[field]}
        />
      ))}
    </SimpleGrid>
  );
}
