import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { isSecretOption, type OptionKey } from '@switchyard/contract/options';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showError, showInfo, showSuccess } from '../../../lib/toast';
import { type OptionValues, useSaveOptions } from '../api/options';
import { type OptionField, OptionInput } from './OptionInput';
import { OptionToggle } from './OptionToggle';
import { changedOptions, displayValue, optionProblem } from './option-draft';
import { useProblemMessage } from './use-problem-message';

export interface OptionSectionProps {
  title: string;
  description?: ReactNode;
  options: OptionValues;
  /** Boolean options: saved when flipped. */
  toggles?: OptionKey[];
  /** Other options: saved together, only those changed, by the section's button. */
  fields?: OptionField[];
  cols?: number;
  /** Extra content under the fields (hints, calculators). */
  children?: ReactNode;
  testId?: string;
}

/** One titled group of options with its own save button. */
export function OptionSection({
  title,
  description,
  options,
  toggles = [],
  fields = [],
  cols = 2,
  children,
  testId,
}: OptionSectionProps) {
  const { t } = useTranslation();
  const save = useSaveOptions();
  const problemMessage = useProblemMessage();
  const keys = fields.map((field) => field.key);
  const shown = Object.fromEntries(keys.map((key) => [key, displayValue(key, options[key])]));
  const [draft, setDraft] = useState<Record<string, string>>(shown);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = () => {
    const changes = changedOptions(keys, draft, shown);
    if (changes.length === 0) {
      showInfo(t('settings.noChanges'));
      return;
    }
    for (const change of changes) {
      const problem = optionProblem(change.key as OptionKey, change.value);
      if (problem) {
        const message = problemMessage(problem);
        setErrors({ [change.key]: message });
        showError(message);
        return;
      }
    }
    setErrors({});
    const secrets = changes.map((change) => change.key).filter((key) => isSecretOption(key as OptionKey));
    save.mutate(
      { changes, secrets },
      {
        onSuccess: () => {
          showSuccess(t('settings.saved'));
          setDraft((current) => {
            const next = { ...current };
            for (const change of changes) {
              next[change.key] = displayValue(change.key as OptionKey, change.value);
            }
            return next;
          });
        },
      },
    );
  };

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid={testId}>
      <Title order={3} fz="h4">
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mt={4}>
          {description}
        </Text>
      )}
      <Stack gap="md" mt="md">
        {toggles.length > 0 && (
          <Stack gap="sm">
            {toggles.map((key) => (
              <OptionToggle key={key} optionKey={key} options={options} />
            ))}
          </Stack>
        )}
        {fields.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: cols }} spacing="md" verticalSpacing="sm">
            {fields.map((field) => (
              <Stack key={field.key} gap="xs">
                <OptionInput
                  field={field}
                  value={draft[field.key] ?? ''}
                  error={errors[field.key]}
                  onChange={(value) => {
                    setDraft((current) => ({ ...current, [field.key]: value }));
                    setErrors((current) => ({ ...current, [field.key]: '' }));
                  }}
                />
                {field.extra}
              </Stack>
            ))}
          </SimpleGrid>
        )}
        {children}
        {fields.length > 0 && (
          <Group justify="flex-end">
            <Button onClick={submit} loading={save.isPending}>
              {t('settings.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
