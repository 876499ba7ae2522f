import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { AuditEntry } from '@switchyard/contract/audit';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import { AuditChanges, useAuditLabels } from './AuditChanges';
import { actionKey } from './audit-changes';

/** The audit log on phones: one card per entry instead of a wide table. */
export function AuditCards({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  return (
    <Stack gap="sm" data-testid="audit-cards">
      {entries.map((entry) => (
        <Card withBorder padding="sm" key={entry.id} data-audit-id={entry.id}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} truncate="end">
              {entry.actor_name || t('audit.unknownActor')}
            </Text>
            <Badge variant="light" style={{ flexShrink: 0 }}>
              {t(actionKey(entry.action), { defaultValue: entry.action })}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            {t('audit.columns.time')} {renderTimestamp(entry.created_at)} · {entry.ip}
          </Text>
          {labels.target(entry) && (
            <Text size="xs" c="dimmed">
              {t('audit.columns.target')} {labels.target(entry)}
            </Text>
          )}
          <div style={{ marginTop: 'var(--mantine-spacing-xs)' }}>
            <AuditChanges entry={entry} />
          </div>
        </Card>
      ))}
    </Stack>
  );
}
