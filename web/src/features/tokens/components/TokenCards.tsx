import { Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import type { TokenRow } from '../api/tokens-list';
import { TokenRowActions } from './TokenRowActions';
import { expiryText, remainingText, TokenStatusBadge, tokenName, usedText } from './token-labels';

interface TokenCardsProps {
  tokens: TokenRow[];
  onCopyFailed: (key: string) => void;
}

/** The token list on phones: one card per token instead of a wide table. */
export function TokenCards({ tokens, onCopyFailed }: TokenCardsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="tokens-cards">
      {tokens.map((token) => (
        <Card key={token.id} withBorder padding="sm" data-token={token.name}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} truncate="end">
              {tokenName(token, t)}
            </Text>
            <TokenStatusBadge status={token.status} />
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            {t('tokens.columns.used')} {usedText(token)} · {t('tokens.columns.remaining')}{' '}
            {remainingText(token, t)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('tokens.columns.created')} {renderTimestamp(token.created_time)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('tokens.columns.expires')} {expiryText(token, t)}
          </Text>
          <Group mt="sm">
            <TokenRowActions token={token} onCopyFailed={onCopyFailed} wrap />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
