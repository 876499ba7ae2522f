import { Group, NumberInput, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Dollars per million tokens of a ratio: quota = tokens × ratio, and QuotaPerUnit quota make $1. */
export const dollarsPerMillion = (ratio: number, quotaPerUnit: number): number =>
  quotaPerUnit > 0 ? (ratio * 1_000_000) / quotaPerUnit : 0;

const round = (value: number) => Number(value.toPrecision(6));

/** What a model ratio costs, side by side with the ratio, and a two-way converter. */
export function RatioPriceHint({ quotaPerUnit }: { quotaPerUnit: number }) {
  const { t } = useTranslation();
  const [ratio, setRatio] = useState<number | string>(1);
  const price = typeof ratio === 'number' ? round(dollarsPerMillion(ratio, quotaPerUnit)) : '';
  return (
    <div data-testid="ratio-price">
      <Text size="sm">
        {t('settings.ratioPrice.rule', {
          price: `$${round(dollarsPerMillion(1, quotaPerUnit))}`,
          quotaPerUnit,
        })}
      </Text>
      <Group gap="sm" mt="xs" align="flex-end">
        <NumberInput
          w={130}
          label={t('settings.ratioPrice.ratio')}
          min={0}
          step={0.1}
          allowNegative={false}
          value={ratio}
          onChange={setRatio}
        />
        <Text pb={8}>=</Text>
        <NumberInput
          w={150}
          label={t('settings.ratioPrice.price')}
          prefix="$"
          min={0}
          allowNegative={false}
          value={price}
          onChange={(value) =>
            setRatio(
              typeof value === 'number' && quotaPerUnit > 0 ? round((value * quotaPerUnit) / 1_000_000) : '',
            )
          }
        />
      </Group>
    </div>
  );
}
