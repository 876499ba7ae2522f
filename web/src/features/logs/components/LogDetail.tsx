import { Badge, Group, Text } from '@mantine/core';
import type { LogEntry } from '@switchyard/contract/logs';
import { useTranslation } from 'react-i18next';
import { logDetailText } from './log-facts-text';
import { elapsedColor } from './log-labels';

/** What the log says (in the console's language when it has facts), with the request's time taken and whether it streamed. */
export function LogDetail({ log }: { log: LogEntry }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {logDetailText(log, t)}
      </Text>
      {(log.elapsed_time > 0 || log.is_stream) && (
        <Group gap={4} mt={4}>
          {log.elapsed_time > 0 && (
            <Badge size="xs" variant="outline" color={elapsedColor(log.elapsed_time)}>
              {t('logs.elapsed', { ms: log.elapsed_time })}
            </Badge>
          )}
          {log.is_stream && (
            <Badge size="xs" color="pink">
              {t('logs.stream')}
            </Badge>
          )}
        </Group>
      )}
    </>
  );
}
