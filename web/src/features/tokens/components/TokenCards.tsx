import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListCard } from '../../../components/ListCard';
import { renderTimestamp } from '../../../lib/format';
import type { TokenRow } from '../api/tokens-list';
import { TokenRowActions } from './TokenRowActions';
import {
  budgetText,
  expiryText,
  limitsText,
  remainingText,
  TokenStatusBadge,
  tokenName,
  usedText,
} from './token-labels';

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
        <ListCard
          key={token.id}
          data-token={token.name}
          title={tokenName(token, t)}
          badge={<TokenStatusBadge status={token.status} />}
          lines={[
            <>
              {t('tokens.columns.used')} {usedText(token)} · {t('tokens.columns.remaining')}{' '}
              {remainingText(token, t)}
            </>,
            <>
              {t('tokens.columns.created')} {renderTimestamp(token.created_time)}
            </>,
            ...(limitsText(token, t) || budgetText(token, t)
              ? [
                  <span key="limits" data-testid="token-limits">
                    {[limitsText(token, t), budgetText(token, t)].filter(Boolean).join(' · ')}
                  </span>,
                ]
              : []),
            <>
              {t('tokens.columns.expires')} {expiryText(token, t)}
            </>,
          ]}
          actions={<TokenRowActions token={token} onCopyFailed={onCopyFailed} wrap />}
        />
      ))}
    </Stack>
  );
}
