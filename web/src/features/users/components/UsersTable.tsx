import { Table, Text, Tooltip } from '@mantine/core';
import { USERNAME_DISPLAY_TRUNCATE } from '@switchyard/contract/users';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderNumber, renderQuota, truncateText } from '../../../lib/format';
import type { ListOrder } from '../../../lib/list-order';
import type { UserOrder, UserRow } from '../api/users-list';
import { UserRowActions } from './UserRowActions';
import { GroupBadges, RoleBadge, StatusBadge } from './user-labels';

const COLUMNS = [
  'id',
  'username',
  'group',
  'remaining',
  'used',
  'requests',
  'role',
  'status',
  'actions',
] as const;
/** Newest first is the default order, so the id column stands for it. */
const ORDER_BY_COLUMN: Partial<Record<(typeof COLUMNS)[number], UserOrder>> = {
  id: '',
  remaining: 'quota',
  used: 'used_quota',
  requests: 'request_count',
};

export function UsersTable({ users, order }: { users: UserRow[]; order: ListOrder<UserOrder> }) {
  const { t } = useTranslation();
  return (
    <ListTable
      miw={1080}
      testId="users-table"
      headers={COLUMNS.map((column) => t(`users.table.${column}`))}
      sort={{ order, byColumn: COLUMNS.map((column) => ORDER_BY_COLUMN[column] ?? null) }}
    >
      {users.map((user) => (
        <Table.Tr key={user.id} data-username={user.username}>
          <Table.Td>{user.id}</Table.Td>
          <Table.Td>
            <Tooltip
              multiline
              withArrow
              openDelay={50}
              label={`${user.display_name || user.username} · ${user.email || t('users.table.noEmail')}`}
            >
              <Text span inherit fw={500}>
                {truncateText(user.username, USERNAME_DISPLAY_TRUNCATE)}
              </Text>
            </Tooltip>
          </Table.Td>
          <Table.Td>
            <GroupBadges group={user.group} />
          </Table.Td>
          <Table.Td>{renderQuota(user.quota)}</Table.Td>
          <Table.Td>{renderQuota(user.used_quota)}</Table.Td>
          <Table.Td>{renderNumber(user.request_count)}</Table.Td>
          <Table.Td>
            <RoleBadge role={user.role} />
          </Table.Td>
          <Table.Td>
            <StatusBadge status={user.status} />
          </Table.Td>
          <Table.Td>
            <UserRowActions user={user} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
