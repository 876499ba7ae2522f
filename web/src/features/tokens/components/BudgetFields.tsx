import { NumberInput, Select, SimpleGrid, Text } from '@mantine/core';
import { BUDGET_PERIODS } from '@switchyard/contract/limits';
import type { Token } from '@switchyard/contract/tokens';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../../lib/validation';
import type { TokenFormValues } from './token-form-values';
import { budgetText } from './token-labels';

interface BudgetFieldsProps {
  token: Token | undefined;
  values: TokenFormValues;
  set: <K extends keyof TokenFormValues>(key: K, value: TokenFormValues[K]) => void;
  errors: FieldErrors;
}

/** The key's periodic budget: the quota per period, when it starts over, and how much of it is spent. */
export function BudgetFields({ token, values, set, errors }: BudgetFieldsProps) {
  const { t } = useTranslation();
  const periods = [
    { value: '', label: t('limits.periods.none') },
    ...BUDGET_PERIODS.map((period) => ({ value: period, label: t(`limits.periods.${period}`) })),
  ];
  const spent = token ? budgetText(token, t) : '';
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NumberInput
          label={t('limits.budget')}
          placeholder={t('limits.periods.none')}
          description={t('limits.budgetHint')}
          name="budget_quota"
          min={0}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={false}
          value={values.budgetQuota}
          onChange={(value) => set('budgetQuota', value)}
          error={errors.budget_quota}
        />
        <Select
          label={t('limits.budgetPeriod')}
          description={t('limits.budgetPeriodHint')}
          data={periods}
          value={values.budgetPeriod}
          allowDeselect={false}
          onChange={(value) => set('budgetPeriod', value ?? '')}
          error={errors.budget_period}
          data-testid="budget-period"
        />
      </SimpleGrid>
      {spent && (
        <Text size="sm" c="dimmed" data-testid="budget-used">
          {spent}
        </Text>
      )}
    </>
  );
}
