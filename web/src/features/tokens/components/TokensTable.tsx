import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderTimestamp } from '../../../lib/format';
import type { ListOrder } from '../../../lib/list-order';
import type { TokenOrder, TokenRow } from '../api/tokens-list';
import { TokenRowActions } from './TokenRowActions';
import {
  expiryText,
  remainingText,
  TokenLimits,
  TokenStatusBadge,
  tokenName,
  usedText,
} from './token-labels';

const COLUMNS = ['name', 'status', 'used', 'remaining', 'limits', 'created', 'expires', 'actions'] as const;
/** Newest first is the default order, so the creation column stands for it. */
const ORDER_BY_COLUMN: Partial<Record<(typeof COLUMNS)[number], TokenOrder>> = {
  used: 'used_quota',
  remaining: 'remain_quota',
  created: '',
};

interface TokensTableProps {
  tokens: TokenRow[];
  order: ListOrder<TokenOrder>;
  onCopyFailed: (key: string) => void;
}

export function TokensTable({ tokens, order, onCopyFailed }: TokensTableProps) {
  const { t } = useTranslation();
  return (
    <ListTable
      miw={1100}
      testId="tokens-table"
      sort={{ order, byColumn: COLUMNS.map((column) => ORDER_BY_COLUMN[column] ?? null) }}
      headers={COLUMNS.map((column) =>
        column === 'limits' ? t('limits.column') : t(`tokens.columns.${column}`),
      )}
    >
      {tokens.map((token) => (
        <Table.Tr key={token.id} data-token={token.name}>
          <Table.Td>
            <Text span inherit fw={500}>
              {tokenName(token, t)}
            </Text>
          </Table.Td>
          <Table.Td>
            <TokenStatusBadge status={token.status} />
          </Table.Td>
          <Table.Td>{usedText(token)}</Table.Td>
          <Table.Td>{remainingText(token, t)}</Table.Td>
          <Table.Td data-testid="token-limits">
            <TokenLimits token={token} />
          </Table.Td>
          <Table.Td>{renderTimestamp(token.created_time)}</Table.Td>
          <Table.Td>{expiryText(token, t)}</Table.Td>
          <Table.Td>
            <TokenRowActions token={token} onCopyFailed={onCopyFailed} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
