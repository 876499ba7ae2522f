import { Box, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../../../lib/markdown';
import { AnswerCost } from './AnswerCost';

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
  /** The call's request id, once its answer ended. */
  requestId?: string | null;
  error?: string;
  stopped?: boolean;
  streaming?: boolean;
}

/** One message of the conversation; an answer as sanitised Markdown, with its cost below. */
export function ChatTurnView({ turn }: { turn: Turn }) {
  const { t } = useTranslation();
  const mine = turn.role === 'user';
  return (
    <Paper
      withBorder
      p="sm"
      bg={mine ? 'var(--mantine-color-default-hover)' : undefined}
      data-testid={mine ? 'turn-user' : 'turn-assistant'}
      style={{ overflowWrap: 'anywhere' }}
    >
      <Text size="xs" fw={700} c="dimmed" mb={4}>
        {mine ? t('playground.you') : t('playground.assistant')}
      </Text>
      {mine ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {turn.content}
        </Text>
      ) : (
        <Box
          className="rich-content"
          fz="sm"
          data-testid="answer-text"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderMarkdown
          dangerouslySetInnerHTML={{ __html: renderMarkdown(turn.content || (turn.streaming ? '…' : '')) }}
        />
      )}
      {turn.error && (
        <Text size="sm" c="red" mt={4} data-testid="answer-error">
          {t('playground.failed', { message: turn.error })}
        </Text>
      )}
      {turn.stopped && (
        <Text size="xs" c="orange" mt={4}>
          {t('playground.stopped')}
        </Text>
      )}
      {!mine && !turn.streaming && turn.requestId && !turn.error && <AnswerCost requestId={turn.requestId} />}
    </Paper>
  );
}
