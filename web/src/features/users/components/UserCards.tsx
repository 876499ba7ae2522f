import { Card, Group, Stack, Text } from '@mantine/core';
import { USERNAME_DISPLAY_TRUNCATE } from '@switchyard/contract/users';
import { useTranslation } from 'react-i18next';
import { renderNumber, renderQuota, truncateText } from '../../../lib/format';
import type { UserRow } from '../api/users-list';
import { UserRowActions } from './UserRowActions';
import { GroupBadges, RoleBadge, StatusBadge } from './user-labels';

/** The user list on phones: one card per user instead of a wide table. */
export function UserCards({ users }: { users: UserRow[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="users-cards">
      {users.map((user) => (
        <Card key={user.id} withBorder padding="sm" data-username={user.username}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text fw={600}>
                #{user.id} {truncateText(user.username, USERNAME_DISPLAY_TRUNCATE)}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {user.email || t('users.table.noEmail')}
              </Text>
            </div>
            <Group gap={4} wrap="nowrap">
              <RoleBadge role={user.role} />
              <StatusBadge status={user.status} />
            </Group>
          </Group>
          <Group gap="xs" mt="xs" wrap="wrap">
            <GroupBadges group={user.group} />
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            {t('users.table.remaining')} {renderQuota(user.quota)} · {t('users.table.used')}{' '}
            {renderQuota(user.used_quota)} · {t('users.table.requests')} {renderNumber(user.request_count)}
          </Text>
          <Group mt="sm">
            <UserRowActions user={user} wrap />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
