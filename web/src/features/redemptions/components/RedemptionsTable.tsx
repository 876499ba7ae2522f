import { ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { renderQuota, renderTimestamp } from '../../../lib/format';
import type { RedemptionRow } from '../api/redemptions-list';
import { RedemptionRowActions } from './RedemptionRowActions';
import { RedemptionStatusBadge, redeemedText, redemptionName } from './redemption-labels';

interface RedemptionsTableProps {
  codes: RedemptionRow[];
  onCopyFailed: (key: string) => void;
}

export function RedemptionsTable({ codes, onCopyFailed }: RedemptionsTableProps) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table miw={960} verticalSpacing="sm" highlightOnHover data-testid="redemptions-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('redemptions.columns.id')}</Table.Th>
            <Table.Th>{t('redemptions.columns.name')}</Table.Th>
            <Table.Th>{t('redemptions.columns.status')}</Table.Th>
            <Table.Th>{t('redemptions.columns.quota')}</Table.Th>
            <Table.Th>{t('redemptions.columns.created')}</Table.Th>
            <Table.Th>{t('redemptions.columns.redeemed')}</Table.Th>
            <Table.Th>{t('redemptions.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {codes.map((code) => (
            <Table.Tr key={code.id} data-code-id={code.id}>
              <Table.Td>{code.id}</Table.Td>
              <Table.Td>
                <Text span fw={500}>
                  {redemptionName(code, t)}
                </Text>
              </Table.Td>
              <Table.Td>
                <RedemptionStatusBadge status={code.status} />
              </Table.Td>
              <Table.Td>{renderQuota(code.quota)}</Table.Td>
              <Table.Td>{renderTimestamp(code.created_time)}</Table.Td>
              <Table.Td>{redeemedText(code, t)}</Table.Td>
              <Table.Td>
                <RedemptionRowActions code={code} onCopyFailed={onCopyFailed} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
