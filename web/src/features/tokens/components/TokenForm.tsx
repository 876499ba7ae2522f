import { Alert, MultiSelect, NumberInput, Stack, Switch, TextInput, Title } from '@mantine/core';
import type { Token } from '@switchyard/contract/tokens';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormButtons } from '../../../components/FormButtons';
import { RateLimitInputs } from '../../../components/RateLimitInputs';
import { renderQuota } from '../../../lib/format';
import { showSuccess } from '../../../lib/toast';
import { useFormFields } from '../../../lib/use-form-fields';
import { useAvailableModels, useOwnLimits, useSaveToken } from '../api/token-edit';
import { BudgetFields } from './BudgetFields';
import { ExpiryField } from './ExpiryField';
import { initialTokenValues, type TokenFormValues, toTokenChange } from './token-form-values';

/** The input field whose error a change of each value clears. */
const ERROR_FIELD: Record<keyof TokenFormValues, string> = {
  name: 'name',
  expiry: 'expired_time',
  remainQuota: 'remain_quota',
  unlimited: 'remain_quota',
  models: 'models',
  subnet: 'subnet',
  rpm_limit: 'rpm_limit',
  tpm_limit: 'tpm_limit',
  concurrency_limit: 'concurrency_limit',
  budgetQuota: 'budget_quota',
  budgetPeriod: 'budget_period',
};

/** Create a token (no `token`) or edit one; back to the list after saving. */
export function TokenForm({ token }: { token?: Token }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveToken();
  const models = useAvailableModels();
  const caps = useOwnLimits();
  const { values, errors, setErrors, set, text } = useFormFields(
    () => initialTokenValues(token),
    ERROR_FIELD,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = toTokenChange(values, token ? token.id : null, t);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    save.mutate(result.change, {
      onSuccess: () => {
        showSuccess(token ? t('tokens.form.updated') : t('tokens.form.created'));
        navigate('/token');
      },
    });
  };

  // Models already on the token stay selectable even if the group no longer offers them.
  const modelOptions = [...new Set([...(models.data ?? []), ...values.models])];
  const quotaNumber = Number.parseInt(String(values.remainQuota), 10);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('tokens.form.name')}
          placeholder={t('tokens.form.namePlaceholder')}
          name="name"
          autoComplete="off"
          {...text('name')}
          withAsterisk
        />
        <MultiSelect
          label={t('tokens.form.models')}
          placeholder={values.models.length ? undefined : t('tokens.form.modelsPlaceholder')}
          description={t('tokens.form.modelsHint')}
          data={modelOptions}
          value={values.models}
          onChange={(value) => set('models', value)}
          searchable
          clearable
          hidePickedOptions
          nothingFoundMessage={t('tokens.form.noModels')}
          error={errors.models}
          data-testid="token-models"
        />
        <TextInput
          label={t('tokens.form.subnet')}
          placeholder={t('tokens.form.subnetPlaceholder')}
          description={t('tokens.form.subnetHint')}
          name="subnet"
          autoComplete="off"
          {...text('subnet')}
        />
        <ExpiryField
          value={values.expiry}
          onChange={(value) => set('expiry', value)}
          error={errors.expired_time}
        />
        <Alert color="blue" variant="light">
          {t('tokens.form.quotaNote')}
        </Alert>
        <NumberInput
          label={t('tokens.form.quota')}
          placeholder={t('tokens.form.quotaPlaceholder')}
          description={
            values.unlimited
              ? t('tokens.form.unlimitedHint')
              : t('tokens.form.quotaEquivalent', {
                  amount: renderQuota(Number.isNaN(quotaNumber) ? 0 : quotaNumber),
                })
          }
          name="remain_quota"
          min={0}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={false}
          value={values.remainQuota}
          onChange={(value) => set('remainQuota', value)}
          disabled={values.unlimited}
          error={errors.remain_quota}
        />
        <Switch
          label={t('tokens.form.unlimited')}
          name="unlimited_quota"
          checked={values.unlimited}
          onChange={(event) => set('unlimited', event.currentTarget.checked)}
        />
        <Title order={5}>{t('limits.title')}</Title>
        <RateLimitInputs
          values={values}
          onChange={(field, value) => set(field, value)}
          errors={errors}
          caps={caps.data}
        />
        <BudgetFields token={token} values={values} set={set} errors={errors} />
        <FormButtons saving={save.isPending} onCancel={() => navigate('/token')} />
      </Stack>
    </form>
  );
}
