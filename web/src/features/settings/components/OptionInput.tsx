import { NumberInput, PasswordInput, Select, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { internalRangeOf } from '@switchyard/contract/internal-host';
import { isSecretOption, OPTION_SPECS, type OptionKey, THEMES } from '@switchyard/contract/options';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface OptionField {
  key: OptionKey;
  /** A text option edited in a multi-line box (Markdown, HTML). */
  multiline?: boolean;
  /** Step of a number input; whole options step by 1. */
  step?: number;
  /** Shown right under the input (a hint that needs more than text). */
  extra?: ReactNode;
  /** An address the server calls: warns when it points into the server's own network. */
  outbound?: boolean;
  /** Replaces the catalogue's placeholder (e.g. the value in effect while the option is empty). */
  placeholder?: string;
}

interface OptionInputProps {
  field: OptionField;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

/** The input for one option, chosen by its kind in the shared option catalogue. */
export function OptionInput({ field, value, error, onChange }: OptionInputProps) {
  const { t } = useTranslation();
  const { key } = field;
  const hint = t(`settings.options.${key}.hint`, { defaultValue: '' }) || undefined;
  const placeholder =
    field.placeholder ?? (t(`settings.options.${key}.placeholder`, { defaultValue: '' }) || undefined);
  const internal = field.outbound ? internalRangeOf(value) : undefined;
  const common = {
    name: key,
    label: t(`settings.options.${key}.label`),
    description: internal ? (
      <>
        {hint}
        <Text component="span" display="block" size="xs" c="orange" role="note">
          {t('settings.internalAddress', { range: t(`settings.internalRanges.${internal}`) })}
        </Text>
      </>
    ) : (
      hint
    ),
    error,
    // Hints go under the input, so the inputs of a row line up whatever their hints.
    inputWrapperOrder: ['label', 'input', 'description', 'error'] as (
      | 'label'
      | 'input'
      | 'description'
      | 'error'
    )[],
  };
  const kind = OPTION_SPECS[key].kind;

  if (isSecretOption(key)) {
    return (
      <PasswordInput
        {...common}
        autoComplete="new-password"
        placeholder={t('settings.secretPlaceholder')}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  if (kind === 'integer' || kind === 'number') {
    return (
      <NumberInput
        {...common}
        min={0}
        step={field.step ?? 1}
        allowNegative={false}
        allowDecimal={kind === 'number'}
        value={value}
        onChange={(next) => onChange(String(next))}
      />
    );
  }
  if (kind === 'theme') {
    return (
      <Select
        {...common}
        data={THEMES.map((theme) => ({ value: theme, label: t(`settings.themes.${theme}`) }))}
        value={value}
        allowDeselect={false}
        onChange={(next) => onChange(next ?? 'default')}
      />
    );
  }
  if (kind === 'ratio-json') {
    return (
      <Textarea
        {...common}
        autosize
        minRows={6}
        maxRows={16}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  if (key === 'EmailDomainWhitelist') {
    return (
      <TagsInput
        {...common}
        placeholder={t('settings.options.EmailDomainWhitelist.placeholder')}
        splitChars={[',', ' ', ';']}
        clearable
        value={value.split(',').filter(Boolean)}
        onChange={(domains) => onChange(domains.join(','))}
      />
    );
  }
  if (field.multiline) {
    return (
      <Textarea
        {...common}
        autosize
        minRows={3}
        maxRows={12}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  return (
    <TextInput
      {...common}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
