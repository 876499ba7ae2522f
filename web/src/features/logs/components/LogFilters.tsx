import { Button, Grid, Group, Select, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOG_FILTER_TYPES, type LogFilterError, type LogFilterForm } from './log-filter-form';
import { logTypeKey } from './log-labels';

interface LogFiltersProps {
  form: LogFilterForm;
  admin: boolean;
  error: LogFilterError | null;
  onChange: (form: LogFilterForm) => void;
  /** The type applies at once; the other fields on search. */
  onType: (type: number) => void;
  onSearch: () => void;
  onReset: () => void;
  searching: boolean;
}

/** The filter fields that hold text (all but the type). */
type TextField = Exclude<keyof LogFilterForm, 'type'>;

export function LogFilters({
  form,
  admin,
  error,
  onChange,
  onType,
  onSearch,
  onReset,
  searching,
}: LogFiltersProps) {
  const { t } = useTranslation();
  /** The props of a text filter bound to one form field. */
  const bound = (field: TextField, name: string, label: string) => ({
    label,
    name,
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) =>
      onChange({ ...form, [field]: event.currentTarget.value }),
  });
  const optional = (field: TextField, name: string, label: string) => ({
    ...bound(field, name, label),
    placeholder: t('logs.filters.optional'),
  });
  const time = (field: 'start' | 'end', name: string, label: string) => ({
    ...bound(field, name, label),
    type: 'datetime-local',
    step: 1,
    error: error === field ? t('logs.filters.badTime') : undefined,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  const types = LOG_FILTER_TYPES.map((type) => ({
    value: String(type),
    label: t(`logs.types.${logTypeKey(type)}`),
  }));

  return (
    <form onSubmit={submit} aria-label={t('logs.filters.label')}>
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 6, md: 3 }}>
          <Select
            label={t('logs.filters.type')}
            name="type"
            data={types}
            value={String(form.type)}
            allowDeselect={false}
            onChange={(value) => onType(Number(value ?? 0))}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 3 }}>
          <TextInput {...optional('tokenName', 'token_name', t('logs.filters.tokenName'))} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 3 }}>
          <TextInput {...optional('modelName', 'model_name', t('logs.filters.modelName'))} />
        </Grid.Col>
        {admin && (
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput {...optional('username', 'username', t('logs.filters.username'))} />
          </Grid.Col>
        )}
        {admin && (
          <Grid.Col span={{ base: 6, md: 3 }} order={{ md: 7 }}>
            <TextInput
              {...optional('channel', 'channel', t('logs.filters.channel'))}
              inputMode="numeric"
              error={error === 'channel' ? t('logs.filters.badChannel') : undefined}
            />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, xs: 6, md: 3 }} order={{ md: 5 }}>
          <TextInput {...time('start', 'start_timestamp', t('logs.filters.start'))} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6, md: 3 }} order={{ md: 6 }}>
          <TextInput {...time('end', 'end_timestamp', t('logs.filters.end'))} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: admin ? 3 : 6 }} order={{ md: 8 }}>
          <Group gap="xs" align="flex-end" wrap="nowrap" h="100%">
            <Button type="submit" loading={searching} style={{ flex: 1 }}>
              {t('logs.filters.search')}
            </Button>
            <Button variant="default" onClick={onReset} style={{ flex: 1 }}>
              {t('logs.filters.reset')}
            </Button>
          </Group>
        </Grid.Col>
      </Grid>
    </form>
  );
}
