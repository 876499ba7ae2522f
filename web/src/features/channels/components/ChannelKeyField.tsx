import { Checkbox, Stack, Textarea, TextInput } from '@mantine/core';
import { channelTypeById } from '@switchyard/contract/channel-types';
import { keyLines } from '@switchyard/contract/channels';
import { useTranslation } from 'react-i18next';

interface ChannelKeyFieldProps {
  type: number;
  value: string;
  onChange: (key: string) => void;
  batch: boolean;
  onBatchChange: (batch: boolean) => void;
  /** Editing: batch creation is off, and an empty key keeps the saved one. */
  editing: boolean;
  /** Root sees the saved key; others get '' from the server. */
  root: boolean;
  error?: string;
}

/** The key: one line with the type's format hint, or one key per line for a batch. */
export function ChannelKeyField(props: ChannelKeyFieldProps) {
  const { t } = useTranslation();
  const format = channelTypeById(props.type)?.keyHint;
  const hint = format ? t('channels.form.keyFormat', { format }) : t('channels.form.keyPlaceholder');
  const keepHint = props.root ? t('channels.form.keyKeep') : t('channels.form.keyHidden');
  return (
    <Stack gap={6}>
      {props.batch && !props.editing ? (
        <Textarea
          label={t('channels.form.key')}
          name="key"
          placeholder={t('channels.form.keyBatchPlaceholder')}
          description={
            format
              ? `${hint} · ${t('channels.form.keyBatchHint', { total: keyLines(props.value).length })}`
              : t('channels.form.keyBatchHint', { total: keyLines(props.value).length })
          }
          autosize
          minRows={4}
          maxRows={12}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          spellCheck={false}
          value={props.value}
          onChange={(event) => props.onChange(event.currentTarget.value)}
          error={props.error}
          withAsterisk
        />
      ) : (
        <TextInput
          label={t('channels.form.key')}
          name="key"
          placeholder={hint}
          description={props.editing ? keepHint : format ? hint : undefined}
          autoComplete="off"
          spellCheck={false}
          value={props.value}
          onChange={(event) => props.onChange(event.currentTarget.value)}
          error={props.error}
          withAsterisk={!props.editing}
        />
      )}
      {!props.editing && (
        <Checkbox
          label={t('channels.form.batch')}
          description={t('channels.form.batchHint')}
          name="batch"
          checked={props.batch}
          onChange={(event) => props.onBatchChange(event.currentTarget.checked)}
        />
      )}
    </Stack>
  );
}
