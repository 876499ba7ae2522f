import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import type { ListOrder } from '../../../lib/list-order';
import type { ChannelOrder, ChannelRow } from '../api/channels-list';
import { ChannelBalance } from './ChannelBalance';
import { ChannelOrderInput } from './ChannelOrderInput';
import { ChannelRowActions } from './ChannelRowActions';
import { ChannelGroups, ChannelStatusBadge, ChannelTypeBadge, ResponseTimeBadge } from './channel-labels';

const COLUMNS = [
  'id',
  'name',
  'group',
  'type',
  'status',
  'responseTime',
  'balance',
  'priority',
  'weight',
  'actions',
] as const;
/** Newest first is the default order, so the id column stands for it. */
const ORDER_BY_COLUMN: Partial<Record<(typeof COLUMNS)[number], ChannelOrder>> = {
  id: '',
  responseTime: 'response_time',
  balance: 'balance',
  priority: 'priority',
};

export function ChannelsTable({
  channels,
  order,
}: {
  channels: ChannelRow[];
  order: ListOrder<ChannelOrder>;
}) {
  const { t } = useTranslation();
  return (
    <ListTable
      miw={1180}
      testId="channels-table"
      headers={COLUMNS.map((column) => t(`channels.columns.${column}`))}
      sort={{ order, byColumn: COLUMNS.map((column) => ORDER_BY_COLUMN[column] ?? null) }}
    >
      {channels.map((channel) => (
        <Table.Tr key={channel.id} data-channel={channel.name} data-id={channel.id}>
          <Table.Td>{channel.id}</Table.Td>
          <Table.Td maw={180}>
            <Text span fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {channel.name || t('channels.noName')}
            </Text>
          </Table.Td>
          <Table.Td>
            <ChannelGroups group={channel.group} />
          </Table.Td>
          <Table.Td>
            <ChannelTypeBadge type={channel.type} />
          </Table.Td>
          <Table.Td>
            <ChannelStatusBadge status={channel.status} />
          </Table.Td>
          <Table.Td>
            <ResponseTimeBadge channel={channel} />
          </Table.Td>
          <Table.Td>
            <ChannelBalance channel={channel} />
          </Table.Td>
          <Table.Td>
            <ChannelOrderInput channel={channel} field="priority" />
          </Table.Td>
          <Table.Td>
            <ChannelOrderInput channel={channel} field="weight" />
          </Table.Td>
          <Table.Td>
            <ChannelRowActions channel={channel} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
