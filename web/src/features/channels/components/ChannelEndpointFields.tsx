import { Stack, TextInput } from '@mantine/core';
import { channelTypeById } from '@switchyard/contract/channel-types';
import { useTranslation } from 'react-i18next';
import { baseUrlField } from './channel-form-values';

interface ChannelEndpointFieldsProps {
  type: number;
  baseUrl: string;
  other: string;
  onBaseUrlChange: (url: string) => void;
  onOtherChange: (other: string) => void;
  errors: { base_url?: string; other?: string };
}

/** The base URL (for the types that take one) and the type's `other` setting, each with its meaning. */
export function ChannelEndpointFields(props: ChannelEndpointFieldsProps) {
  const { t } = useTranslation();
  const url = baseUrlField(props.type);
  const other = channelTypeById(props.type)?.other;
  if (!url && !other) return null;
  const otherHint = other && t(`channels.form.otherHint.${other.kind}`);
  return (
    <Stack gap="md">
      {url && (
        <TextInput
          label={t(`channels.form.baseUrl.${url.kind}`)}
          name="base_url"
          placeholder={t(`channels.form.baseUrlPlaceholder.${url.kind}`)}
          description={
            url.defaultUrl ? t('channels.form.baseUrlDefault', { url: url.defaultUrl }) : undefined
          }
          autoComplete="off"
          spellCheck={false}
          value={props.baseUrl}
          onChange={(event) => props.onBaseUrlChange(event.currentTarget.value)}
          error={props.errors.base_url}
          withAsterisk={url.required}
        />
      )}
      {other && (
        <TextInput
          label={t(`channels.form.other.${other.kind}`)}
          name="other"
          placeholder={other.default ?? other.placeholder}
          description={
            other.default
              ? `${otherHint} ${t('channels.form.otherDefault', { value: other.default })}`
              : otherHint
          }
          autoComplete="off"
          spellCheck={false}
          value={props.other}
          onChange={(event) => props.onOtherChange(event.currentTarget.value)}
          error={props.errors.other}
        />
      )}
    </Stack>
  );
}
