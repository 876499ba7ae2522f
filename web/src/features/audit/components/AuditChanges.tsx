import { Code, Stack, Text } from '@mantine/core';
import type { AuditEntry } from '@switchyard/contract/audit';
import { useTranslation } from 'react-i18next';
import { fieldChanges, fieldLabel, targetText } from './audit-changes';

/** An entry's target and field names in the console's words, in its language. */
export function useAuditLabels() {
  const { t, i18n } = useTranslation();
  const exists = (key: string) => i18n.exists(key);
  return {
    target: (entry: Pick<AuditEntry, 'target_type' | 'target_id' | 'target_name'>) =>
      targetText(entry, t, exists),
    field: (targetType: string, field: string) => fieldLabel(targetType, field, t, exists),
  };
}

/** An entry's changed fields, one line each: `field: before → after`. */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  const changes = fieldChanges(entry);
  if (changes.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        {t('audit.noChanges')}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {changes.map((change) => (
        <Text key={change.field} size="xs" style={{ overflowWrap: 'anywhere' }}>
          <Text span inherit fw={600}>
            {labels.field(entry.target_type, change.field)}
          </Text>
          {': '}
          {change.before !== undefined && <Code>{change.before}</Code>}
          {change.before !== undefined && change.after !== undefined && ' → '}
          {change.after !== undefined && <Code>{change.after}</Code>}
        </Text>
      ))}
    </Stack>
  );
}
