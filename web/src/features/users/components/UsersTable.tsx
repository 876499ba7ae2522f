import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { USERNAME_DISPLAY_TRUNCATE } from '@switchyard/contract/users';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderNumber, renderQuota, truncateText } from '../../../lib/format';
import type { UserRow } from '../api/users-list';
import { UserRowActions } from './UserRowActions';
import { GroupBadges, RoleBadge, StatusBadge } from './user-labels';

const COLUMNS = ['id', 'username', 'group', 'stats', 'role', 'status', 'actions'] as const;

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Tooltip label={label} withArrow openDelay={70}>
      <Badge variant="outline" color="gray" tt="none" fw={500}>
        {value}
      </Badge>
    </Tooltip>
  );
}

export function UsersTable({ users }: { users: UserRow[] }) {
  const { t } = useTranslation();
  return (
    <ListTable miw={980} testId="users-table" headers={COLUMNS.map((column) => t(`users.table.${column}`))}>
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
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <Stat label={t('users.table.remaining')} value={renderQuota(user.quota)} />
              <Stat label={t('users.table.used')} value={renderQuota(user.used_quota)} />
              <Stat label={t('users.table.requests')} value={renderNumber(user.request_count)} />
            </Group>
          </Table.Td>
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
