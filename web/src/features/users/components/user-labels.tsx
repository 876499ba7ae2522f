import { Badge, Group } from '@mantine/core';
import { Role, UserStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';

export function RoleBadge({ role }: { role: number }) {
  const { t } = useTranslation();
  if (role === Role.common)
    return (
      <Badge variant="light" color="gray">
        {t('users.roles.common')}
      </Badge>
    );
  if (role === Role.admin)
    return (
      <Badge variant="light" color="yellow">
        {t('users.roles.admin')}
      </Badge>
    );
  if (role === Role.root)
    return (
      <Badge variant="light" color="orange">
        {t('users.roles.root')}
      </Badge>
    );
  return (
    <Badge variant="light" color="red">
      {t('users.roles.unknown')}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  if (status === UserStatus.enabled)
    return (
      <Badge variant="outline" color="green">
        {t('users.statuses.enabled')}
      </Badge>
    );
  if (status === UserStatus.disabled)
    return (
      <Badge variant="outline" color="red">
        {t('users.statuses.disabled')}
      </Badge>
    );
  return (
    <Badge variant="outline" color="gray">
      {t('users.statuses.unknown')}
    </Badge>
  );
}

const GROUP_COLORS: Record<string, string> = { vip: 'yellow', pro: 'yellow', svip: 'red', premium: 'red' };

/** Comma-separated groups as badges; empty means "default". */
export function GroupBadges({ group }: { group: string }) {
  const groups = group ? group.split(',').filter(Boolean).sort() : ['default'];
  return (
    <Group gap={4} wrap="nowrap">
      {groups.map((name) => (
        <Badge key={name} variant="default" color={GROUP_COLORS[name] ?? 'gray'} tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
