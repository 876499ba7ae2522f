import { Button, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import { splitList } from '@switchyard/contract/tokens';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultModelsOf, useAllModels, useTypeModels } from '../api/channel-models';

interface ChannelModelsFieldProps {
  type: number;
  value: string[];
  onChange: (models: string[]) => void;
  error?: string;
}

/** The models the channel serves, with fill-default, fill-all, clear and a custom name. */
export function ChannelModelsField({ type, value, onChange, error }: ChannelModelsFieldProps) {
  const { t } = useTranslation();
  const typeModels = useTypeModels();
  const allModels = useAllModels();
  const [custom, setCustom] = useState('');
  const defaults = defaultModelsOf(type, typeModels.data);
  const options = [...new Set([...(allModels.data ?? []), ...defaults, ...value])];

  const addCustom = () => {
    const names = splitList(custom);
    if (names.length === 0) return;
    onChange([...new Set([...value, ...names])]);
    setCustom('');
  };

  return (
    <Stack gap={6}>
      <MultiSelect
        label={t('channels.form.models')}
        name="models"
        placeholder={value.length ? undefined : t('channels.form.modelsPlaceholder')}
        description={t('channels.form.modelsCount', { total: value.length })}
        data={options}
        value={value}
        onChange={onChange}
        searchable
        hidePickedOptions
        maxDropdownHeight={300}
        nothingFoundMessage={t('channels.form.noModels')}
        error={error}
        withAsterisk
        data-testid="channel-models"
      />
      <Group gap={6} wrap="wrap">
        <Button size="compact-sm" variant="light" onClick={() => onChange([...defaults])}>
          {t('channels.form.fillDefault')}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          loading={allModels.isLoading}
          onClick={() => onChange([...new Set(allModels.data ?? [])])}
        >
          {t('channels.form.fillAll')}
        </Button>
        <Button size="compact-sm" variant="default" onClick={() => onChange([])}>
          {t('channels.form.clearModels')}
        </Button>
        <Group gap={0} wrap="nowrap" style={{ flex: '1 1 240px' }}>
          <TextInput
            size="xs"
            style={{ flex: 1 }}
            aria-label={t('channels.form.customModel')}
            placeholder={t('channels.form.customModelPlaceholder')}
            name="custom_model"
            value={custom}
            onChange={(event) => setCustom(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                addCustom();
              }
            }}
          />
          <Button size="xs" variant="default" onClick={addCustom}>
            {t('channels.form.addCustomModel')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
