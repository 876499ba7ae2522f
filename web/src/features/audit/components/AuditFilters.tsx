import { Button, Grid, Group, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditFilterError, AuditFilterForm } from './audit-filter-form';

interface AuditFiltersProps {
  form: AuditFilterForm;
  error: AuditFilterError | null;
  onChange: (form: AuditFilterForm) => void;
  onSearch: () => void;
  onReset: () => void;
  searching: boolean;
}

export function AuditFilters({ form, error, onChange, onSearch, onReset, searching }: AuditFiltersProps) {
  const { t } = useTranslation();
  const bound = (field: keyof AuditFilterForm, name: string) => ({
    label: t(`audit.filters.${field}`),
    name,
    value: form[field],
    onChange: (event: { currentTarget: { value: string } }) =>
      onChange({ ...form, [field]: event.currentTarget.value }),
  });
  const text = (field: 'actor' | 'action' | 'target') => ({
    ...bound(field, field),
    placeholder: t(`audit.filters.${field}Hint`),
  });
  const time = (field: 'start' | 'end', name: string) => ({
    ...bound(field, name),
    type: 'datetime-local',
    step: 1,
    error: error === field ? t('audit.filters.badTime') : undefined,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <form onSubmit={submit} aria-label={t('audit.filters.label')}>
      <Grid gap="sm">
        <Grid.Col span={{ base: 6, md: 4 }}>
          <TextInput {...text('actor')} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 4 }}>
          <TextInput {...text('action')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <TextInput {...text('target')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6, md: 4 }}>
          <TextInput {...time('start', 'start_timestamp')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6, md: 4 }}>
          <TextInput {...time('end', 'end_timestamp')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Group gap="xs" align="flex-end" wrap="nowrap" h="100%">
            <Button type="submit" loading={searching} style={{ flex: 1 }}>
              {t('audit.filters.search')}
            </Button>
            <Button variant="default" onClick={onReset} style={{ flex: 1 }}>
              {t('audit.filters.reset')}
            </Button>
          </Group>
        </Grid.Col>
      </Grid>
    </form>
  );
}
