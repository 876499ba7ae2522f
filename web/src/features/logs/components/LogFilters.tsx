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
  const set = (field: keyof LogFilterForm) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...form, [field]: event.currentTarget.value });
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
          <TextInput
            label={t('logs.filters.tokenName')}
            name="token_name"
            placeholder={t('logs.filters.optional')}
            value={form.tokenName}
            onChange={set('tokenName')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 3 }}>
          <TextInput
            label={t('logs.filters.modelName')}
            name="model_name"
            placeholder={t('logs.filters.optional')}
            value={form.modelName}
            onChange={set('modelName')}
          />
        </Grid.Col>
        {admin && (
          <Grid.Col span={{ base: 6, md: 3 }}>
            <TextInput
              label={t('logs.filters.username')}
              name="username"
              placeholder={t('logs.filters.optional')}
              value={form.username}
              onChange={set('username')}
            />
          </Grid.Col>
        )}
        {admin && (
          <Grid.Col span={{ base: 6, md: 3 }} order={{ md: 7 }}>
            <TextInput
              label={t('logs.filters.channel')}
              name="channel"
              inputMode="numeric"
              placeholder={t('logs.filters.optional')}
              value={form.channel}
              onChange={set('channel')}
              error={error === 'channel' ? t('logs.filters.badChannel') : undefined}
            />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, xs: 6, md: 3 }} order={{ md: 5 }}>
          <TextInput
            type="datetime-local"
            step={1}
            label={t('logs.filters.start')}
            name="start_timestamp"
            value={form.start}
            onChange={set('start')}
            error={error === 'start' ? t('logs.filters.badTime') : undefined}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6, md: 3 }} order={{ md: 6 }}>
          <TextInput
            type="datetime-local"
            step={1}
            label={t('logs.filters.end')}
            name="end_timestamp"
            value={form.end}
            onChange={set('end')}
            error={error === 'end' ? t('logs.filters.badTime') : undefined}
          />
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
