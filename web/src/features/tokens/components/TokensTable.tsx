import { ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import type { TokenRow } from '../api/tokens-list';
import { TokenRowActions } from './TokenRowActions';
import { expiryText, remainingText, TokenStatusBadge, tokenName, usedText } from './token-labels';

interface TokensTableProps {
  tokens: TokenRow[];
  onCopyFailed: (key: string) => void;
}

export function TokensTable({ tokens, onCopyFailed }: TokensTableProps) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table miw={980} verticalSpacing="sm" highlightOnHover data-testid="tokens-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('tokens.columns.name')}</Table.Th>
            <Table.Th>{t('tokens.columns.status')}</Table.Th>
            <Table.Th>{t('tokens.columns.used')}</Table.Th>
            <Table.Th>{t('tokens.columns.remaining')}</Table.Th>
            <Table.Th>{t('tokens.columns.created')}</Table.Th>
            <Table.Th>{t('tokens.columns.expires')}</Table.Th>
            <Table.Th>{t('tokens.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id} data-token={token.name}>
              <Table.Td>
                <Text span fw={500}>
                  {tokenName(token, t)}
                </Text>
              </Table.Td>
              <Table.Td>
                <TokenStatusBadge status={token.status} />
              </Table.Td>
              <Table.Td>{usedText(token)}</Table.Td>
              <Table.Td>{remainingText(token, t)}</Table.Td>
              <Table.Td>{renderTimestamp(token.created_time)}</Table.Td>
              <Table.Td>{expiryText(token, t)}</Table.Td>
              <Table.Td>
                <TokenRowActions token={token} onCopyFailed={onCopyFailed} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
