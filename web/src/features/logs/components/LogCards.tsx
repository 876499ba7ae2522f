import { Card, Group, Stack, Text } from '@mantine/core';
import type { LogEntry } from '@switchyard/contract/logs';
import { useTranslation } from 'react-i18next';
import { renderLogQuota, renderTimestamp } from '../../../lib/format';
import { LogDetail } from './LogDetail';
import { LogTypeBadge } from './log-labels';

/** The log list on phones: one card per entry. */
export function LogCards({ logs, admin }: { logs: LogEntry[]; admin: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="logs-cards">
      {logs.map((log, index) => (
        <Card key={log.id || `${log.created_at}-${index}`} withBorder padding="sm" data-log-type={log.type}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" ff="monospace">
              {renderTimestamp(log.created_at)}
            </Text>
            <LogTypeBadge type={log.type} />
          </Group>
          {(log.model_name || log.token_name) && (
            <Text size="sm" fw={500} mt={4}>
              {[log.model_name, log.token_name].filter(Boolean).join(' · ')}
            </Text>
          )}
          {admin && (log.username || log.channel > 0) && (
            <Text size="xs" c="dimmed">
              {[
                log.username && `${t('logs.columns.user')} ${log.username}`,
                log.channel > 0 && `${t('logs.columns.channel')} #${log.channel}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          )}
          {(log.prompt_tokens > 0 || log.completion_tokens > 0 || log.quota !== 0) && (
            <Text size="xs" c="dimmed" mt={4}>
              {[
                (log.prompt_tokens > 0 || log.completion_tokens > 0) &&
                  `${t('logs.columns.prompt')} ${log.prompt_tokens} · ${t('logs.columns.completion')} ${log.completion_tokens}`,
                log.quota !== 0 && `${t('logs.columns.quota')} ${renderLogQuota(log.quota)}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          )}
          <Stack gap={0} mt={6}>
            <LogDetail log={log} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
