import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderTimestamp } from '../../../lib/format';
import type { TokenRow } from '../api/tokens-list';
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

interface TokensTableProps {
  tokens: TokenRow[];
  onCopyFailed: (key: string) => void;
}

export function TokensTable({ tokens, onCopyFailed }: TokensTableProps) {
  const { t } = useTranslation();
  return (
    <ListTable
      miw={1100}
      testId="tokens-table"
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
