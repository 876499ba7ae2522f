import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { renderLogQuota } from '../../../lib/format';
import { useCallLog } from '../api/playground-queries';

/** An answer's cost and tokens, read from its usage log line once the call settled. */
export function AnswerCost({ requestId }: { requestId: string }) {
  const { t } = useTranslation();
  const log = useCallLog(requestId);
  const text = log.data
    ? t('playground.cost', {
        quota: renderLogQuota(log.data.quota),
        prompt: log.data.prompt_tokens,
        completion: log.data.completion_tokens,
      })
    : t(log.data === null || log.isError ? 'playground.costUnknown' : 'playground.costPending');
  return (
    <Text size="xs" c="dimmed" mt={4} data-testid={log.data ? 'answer-cost' : 'answer-cost-pending'}>
      {text}
    </Text>
  );
}
