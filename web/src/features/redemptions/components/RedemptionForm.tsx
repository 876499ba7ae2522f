import { Alert, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { REDEMPTION_MAX_COUNT, type Redemption } from '@switchyard/contract/redemptions';
import { RedemptionStatus } from '@switchyard/contract/roles';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormButtons } from '../../../components/FormButtons';
import { downloadText } from '../../../lib/download';
import { renderQuota } from '../../../lib/format';
import { showSuccess } from '../../../lib/toast';
import { useFormFields } from '../../../lib/use-form-fields';
import { useCreateRedemptions, useUpdateRedemption } from '../api/redemption-edit';
import {
  codesFile,
  initialRedemptionValues,
  type RedemptionFormValues,
  toCreateInput,
  toUpdateInput,
} from './redemption-form-values';

/** The input field whose error a change of each value clears. */
const ERROR_FIELD: Record<keyof RedemptionFormValues, string> = {
  name: 'name',
  quota: 'quota',
  count: 'count',
};

/** Create codes (no `code`; they download as `<name>.txt`) or edit one code's name and quota. */
export function RedemptionForm({ code }: { code?: Redemption }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const { values, errors, setErrors, set, text } = useFormFields(
    () => initialRedemptionValues(code),
    ERROR_FIELD,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code) {
      const result = toUpdateInput(values, code.id, t);
      if (!result.ok) return setErrors(result.errors);
      setErrors({});
      update.mutate(result.input, {
        onSuccess: () => {
          showSuccess(t('redemptions.form.updated'));
          navigate('/redemption');
        },
      });
      return;
    }
    const result = toCreateInput(values, t);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    create.mutate(result.input, {
      onSuccess: (codes) => {
        showSuccess(t('redemptions.form.created'));
        const file = codesFile(result.input.name, codes);
        downloadText(file.text, file.filename);
        navigate('/redemption');
      },
    });
  };

  const quotaNumber = Number.parseInt(String(values.quota), 10);
  // The server keeps a used code as it was redeemed.
  const used = code?.status === RedemptionStatus.used;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {used && (
          <Alert color="yellow" variant="light">
            {t('redemptions.form.usedNote')}
          </Alert>
        )}
        <TextInput
          label={t('redemptions.form.name')}
          placeholder={t('redemptions.form.namePlaceholder')}
          description={code ? undefined : t('redemptions.form.nameHint')}
          name="name"
          autoComplete="off"
          {...text('name')}
          withAsterisk
        />
        <SimpleGrid cols={{ base: 1, sm: code ? 1 : 2 }} spacing="md">
          <NumberInput
            label={t('redemptions.form.quota')}
            placeholder={t('redemptions.form.quotaPlaceholder')}
            description={t('redemptions.form.quotaEquivalent', {
              amount: renderQuota(Number.isNaN(quotaNumber) ? 0 : quotaNumber),
            })}
            name="quota"
            min={0}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            value={values.quota}
            onChange={(value) => set('quota', value)}
            error={errors.quota}
          />
          {!code && (
            <NumberInput
              label={t('redemptions.form.count')}
              placeholder={t('redemptions.form.countPlaceholder')}
              description={t('redemptions.form.countHint', { max: REDEMPTION_MAX_COUNT })}
              name="count"
              min={1}
              max={REDEMPTION_MAX_COUNT}
              clampBehavior="none"
              step={1}
              allowDecimal={false}
              allowNegative={false}
              value={values.count}
              onChange={(value) => set('count', value)}
              error={errors.count}
            />
          )}
        </SimpleGrid>
        <FormButtons
          saving={create.isPending || update.isPending}
          disabled={used}
          onCancel={() => navigate('/redemption')}
        />
      </Stack>
    </form>
  );
}
