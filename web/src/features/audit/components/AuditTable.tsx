import { Table, Text } from '@mantine/core';
import type { AuditEntry } from '@switchyard/contract/audit';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderTimestamp } from '../../../lib/format';
import { AuditChanges, useAuditLabels } from './AuditChanges';
import { actionKey } from './audit-changes';

const COLUMNS = ['time', 'actor', 'ip', 'action', 'target', 'changes'] as const;

export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  return (
    <ListTable
      miw={1000}
      testId="audit-table"
      headers={COLUMNS.map((column) => t(`audit.columns.${column}`))}
    >
      {entries.map((entry) => (
        <Table.Tr key={entry.id} data-audit-id={entry.id}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{renderTimestamp(entry.created_at)}</Table.Td>
          <Table.Td>
            <Text span inherit fw={500}>
              {entry.actor_name || t('audit.unknownActor')}
            </Text>
          </Table.Td>
          <Table.Td ff="monospace">{entry.ip}</Table.Td>
          <Table.Td>{t(actionKey(entry.action), { defaultValue: entry.action })}</Table.Td>
          <Table.Td>{labels.target(entry)}</Table.Td>
          <Table.Td maw={420}>
            <AuditChanges entry={entry} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
