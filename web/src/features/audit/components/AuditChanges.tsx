import { Code, Stack, Text } from '@mantine/core';
import type { AuditEntry } from '@switchyard/contract/audit';
import { useTranslation } from 'react-i18next';
import { fieldChanges } from './audit-changes';

/** An entry's changed fields, one line each: `field: before → after`. */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
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
            {change.field}
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
