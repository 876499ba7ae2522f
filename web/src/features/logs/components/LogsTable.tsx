import { Badge, ScrollArea, Table, Text } from '@mantine/core';
import type { LogEntry } from '@switchyard/contract/logs';
import { useTranslation } from 'react-i18next';
import { renderLogQuota, renderTimestamp } from '../../../lib/format';
import { LogDetail } from './LogDetail';
import { LogTypeBadge } from './log-labels';

/**
 * The log list on wide screens; channel and user columns for admins. Names, models and details wrap, so
 * the admin's table fits 1280 px; it scrolls sideways only on narrower windows.
 */
export function LogsTable({ logs, admin }: { logs: LogEntry[]; admin: boolean }) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table
        miw={admin ? 1000 : 900}
        verticalSpacing="xs"
        highlightOnHover
        data-testid="logs-table"
        styles={{ th: { whiteSpace: 'nowrap' } }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('logs.columns.time')}</Table.Th>
            {admin && <Table.Th>{t('logs.columns.channel')}</Table.Th>}
            {admin && <Table.Th>{t('logs.columns.user')}</Table.Th>}
            <Table.Th>{t('logs.columns.token')}</Table.Th>
            <Table.Th>{t('logs.columns.type')}</Table.Th>
            <Table.Th>{t('logs.columns.model')}</Table.Th>
            <Table.Th ta="right">{t('logs.columns.prompt')}</Table.Th>
            <Table.Th ta="right">{t('logs.columns.completion')}</Table.Th>
            <Table.Th ta="right">{t('logs.columns.quota')}</Table.Th>
            <Table.Th>{t('logs.columns.detail')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {logs.map((log, index) => (
            <Table.Tr key={log.id || `${log.created_at}-${index}`} data-log-type={log.type}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" ff="monospace">
                  {renderTimestamp(log.created_at)}
                </Text>
              </Table.Td>
              {admin && (
                <Table.Td>{log.channel ? <Badge variant="default">{log.channel}</Badge> : ''}</Table.Td>
              )}
              {admin && <Table.Td>{log.username}</Table.Td>}
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{log.token_name}</Table.Td>
              <Table.Td>
                <LogTypeBadge type={log.type} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{log.model_name}</Table.Td>
              <Table.Td ta="right">{log.prompt_tokens || ''}</Table.Td>
              <Table.Td ta="right">{log.completion_tokens || ''}</Table.Td>
              <Table.Td ta="right" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {log.quota ? renderLogQuota(log.quota) : ''}
              </Table.Td>
              <Table.Td miw={200}>
                <LogDetail log={log} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
