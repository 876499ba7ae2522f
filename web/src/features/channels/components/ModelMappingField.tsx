import { Button, Group, JsonInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MODEL_MAPPING_EXAMPLE, prettyJson } from './channel-form-values';

interface ModelMappingFieldProps {
  value: string;
  onChange: (mapping: string) => void;
  error?: string;
}

/** The model mapping as JSON: checked and formatted when the reader leaves the box. */
export function ModelMappingField({ value, onChange, error }: ModelMappingFieldProps) {
  const { t } = useTranslation();
  const example = prettyJson(MODEL_MAPPING_EXAMPLE);
  return (
    <Stack gap={6}>
      <JsonInput
        label={t('channels.form.mapping')}
        description={t('channels.form.mappingHint')}
        placeholder={t('channels.form.mappingPlaceholder', { example })}
        name="model_mapping"
        value={value}
        onChange={onChange}
        validationError={t('channels.form.errors.model_mapping.json')}
        formatOnBlur
        autosize
        minRows={5}
        maxRows={16}
        spellCheck={false}
        error={error}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      {value.trim() === '' && (
        <Group>
          <Button size="compact-sm" variant="subtle" onClick={() => onChange(example)}>
            {t('channels.form.mappingExample')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
