import { Button, Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardScope } from '../api/dashboard';
import { dayRange, lastDays } from './dashboard-series';

export const RANGE_PRESETS = ['7', '30', '90'] as const;
export const DEFAULT_DAYS = 7;

export type RangeChoice = (typeof RANGE_PRESETS)[number] | 'custom';

export interface DashboardRange {
  start: number;
  end: number;
}

/** Last 7, 30 or 90 days, or two chosen dates (UTC days, as the server groups them). */
export function RangeControl({ onChange }: { onChange: (range: DashboardRange) => void }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<RangeChoice>(String(DEFAULT_DAYS) as RangeChoice);
  const today = new Date().toISOString().slice(0, 10);
  const [from, setFrom] = useState(() =>
    new Date(lastDays(DEFAULT_DAYS).start * 1000).toISOString().slice(0, 10),
  );
  const [to, setTo] = useState(today);
  const [invalid, setInvalid] = useState(false);

  const choose = (value: string) => {
    const next = value as RangeChoice;
    setChoice(next);
    if (next !== 'custom') onChange(lastDays(Number(next)));
  };
  /** A date box of the custom range (up to today). */
  const dayInput = (label: string, value: string, set: (value: string) => void) => ({
    size: 'xs',
    type: 'date',
    'aria-label': label,
    value,
    max: today,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(event.currentTarget.value),
    error: invalid,
  });
  const applyDates = (event: FormEvent) => {
    event.preventDefault();
    const range = dayRange(from, to);
    setInvalid(range === null);
    if (range) onChange(range);
  };

  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <SegmentedControl
        size="xs"
        aria-label={t('dashboard.range.label')}
        value={choice}
        onChange={choose}
        data={[
          ...RANGE_PRESETS.map((days) => ({
            value: days,
            label: t('dashboard.range.days', { count: Number(days) }),
          })),
          { value: 'custom', label: t('dashboard.range.custom') },
        ]}
      />
      {choice === 'custom' && (
        <form onSubmit={applyDates}>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput {...dayInput(t('dashboard.range.from'), from, setFrom)} />
            <TextInput {...dayInput(t('dashboard.range.to'), to, setTo)} />
            <Button size="xs" type="submit" variant="light">
              {t('dashboard.range.apply')}
            </Button>
          </Group>
        </form>
      )}
    </Group>
  );
}

/** Admins: their own use, everyone's, or one user's. */
export function ScopeControl({
  initial,
  onChange,
}: {
  initial: DashboardScope['kind'];
  onChange: (scope: DashboardScope) => void;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState(initial);
  const [username, setUsername] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ kind: 'user', username: username.trim() });
  };
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <Select
        size="xs"
        w={150}
        aria-label={t('dashboard.scope.label')}
        value={kind}
        allowDeselect={false}
        data={(['self', 'all', 'user'] as const).map((value) => ({
          value,
          label: t(`dashboard.scope.${value}`),
        }))}
        onChange={(value) => {
          const next = (value ?? 'self') as DashboardScope['kind'];
          setKind(next);
          if (next === 'user') onChange({ kind: 'user', username: username.trim() });
          else onChange({ kind: next });
        }}
      />
      {kind === 'user' && (
        <form onSubmit={submit}>
          <Group gap="xs" wrap="nowrap">
            <TextInput
              size="xs"
              name="dashboard_username"
              aria-label={t('dashboard.scope.username')}
              placeholder={t('dashboard.scope.username')}
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
            />
            <Button size="xs" type="submit" variant="light">
              {t('dashboard.scope.show')}
            </Button>
          </Group>
        </form>
      )}
    </Group>
  );
}
