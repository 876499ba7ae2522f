import { Badge, Button, Group, Text } from '@mantine/core';
import type { LogEntry } from '@switchyard/contract/logs';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { showSuccess, showWarning } from '../../../lib/toast';
import { logDetailText } from './log-facts-text';
import { elapsedColor } from './log-labels';

/** The request's id, copied on a click or tap (what a user quotes when asking about a call). */
function RequestIdButton({ id }: { id: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    if (await copyText(id)) showSuccess(t('logs.requestIdCopied', { id }));
    else showWarning(t('logs.requestIdNotCopied', { id }));
  };
  return (
    <Button
      size="compact-xs"
      variant="light"
      color="gray"
      className="tap-target"
      title={id}
      aria-label={t('logs.copyRequestId', { id })}
      data-testid="log-request-id"
      onClick={() => void copy()}
    >
      {t('logs.requestId')}
    </Button>
  );
}

/**
 * What the log says (in the console's language when it has facts), with the request's time taken,
 * whether it streamed, and its request id to copy.
 */
export function LogDetail({ log }: { log: LogEntry }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {logDetailText(log, t)}
      </Text>
      {(log.elapsed_time > 0 || log.is_stream || log.request_id) && (
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
          {log.request_id && <RequestIdButton id={log.request_id} />}
        </Group>
      )}
    </>
  );
}
