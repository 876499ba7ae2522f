import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderQuota, renderTimestamp } from '../../../lib/format';
import type { RedemptionRow } from '../api/redemptions-list';
import { RedemptionRowActions } from './RedemptionRowActions';
import { RedemptionStatusBadge, redeemedText, redemptionName } from './redemption-labels';

const COLUMNS = ['id', 'name', 'status', 'quota', 'created', 'redeemed', 'actions'] as const;

interface RedemptionsTableProps {
  codes: RedemptionRow[];
  onCopyFailed: (key: string) => void;
}

export function RedemptionsTable({ codes, onCopyFailed }: RedemptionsTableProps) {
  const { t } = useTranslation();
  return (
    <ListTable
      miw={960}
      testId="redemptions-table"
      headers={COLUMNS.map((column) => t(`redemptions.columns.${column}`))}
    >
      {codes.map((code) => (
        <Table.Tr key={code.id} data-code-id={code.id}>
          <Table.Td>{code.id}</Table.Td>
          <Table.Td>
            <Text span inherit fw={500}>
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
    </ListTable>
  );
}
