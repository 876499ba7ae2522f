import { Alert, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type ConfigField, channelTypeById } from '@switchyard/contract/channel-types';
import { useTranslation } from 'react-i18next';
import { configFieldName } from './channel-form-values';

interface ChannelConfigFieldsProps {
  type: number;
  config: Record<string, string>;
  onChange: (key: string, value: string) => void;
  /** Editing: a secret left empty keeps the saved one (others than root never receive it). */
  editing: boolean;
  root: boolean;
  errors: Partial<Record<string, string>>;
}

/** The type's tip and its settings kept in the channel's config (AWS, Vertex AI, Coze, Cloudflare). */
export function ChannelConfigFields(props: ChannelConfigFieldsProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const entry = channelTypeById(props.type);
  const fields = entry?.configFields ?? [];
  if (!entry || (!entry.tip && fields.length === 0)) return null;
  const short = fields.filter((field) => !field.multiline);
  const long = fields.filter((field) => field.multiline);

  const input = (field: ConfigField) => {
    // Editing: a secret left empty keeps the saved one, so it is not required there.
    const keep = props.editing && field.secret;
    const shared = {
      label: field.label[lang],
      name: configFieldName(field.key),
      placeholder: field.placeholder?.[lang],
      spellCheck: false,
      autoComplete: 'off',
      value: props.config[field.key] ?? '',
      error: props.errors[configFieldName(field.key)],
      withAsterisk: field.required && !keep,
    };
    return field.multiline ? (
      <Textarea
        key={field.key}
        {...shared}
        autosize
        minRows={5}
        maxRows={14}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        onChange={(event) => props.onChange(field.key, event.currentTarget.value)}
      />
    ) : (
      <TextInput
        key={field.key}
        {...shared}
        onChange={(event) => props.onChange(field.key, event.currentTarget.value)}
      />
    );
  };

  return (
    <Stack gap="md" data-testid="channel-config-fields">
      {entry.tip && (
        <Alert color="blue" variant="light">
          {entry.tip[lang]}
        </Alert>
      )}
      {short.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: Math.min(short.length, 3) }} spacing="md">
          {short.map(input)}
        </SimpleGrid>
      )}
      {long.map(input)}
      {/* Said once for all secret fields, so that the inputs of a row stay aligned. */}
      {props.editing && !props.root && fields.some((field) => field.secret) && (
        <Text size="xs" c="dimmed" mt={-8}>
          {t('channels.form.secretHidden')}
        </Text>
      )}
    </Stack>
  );
}
