import { Badge, Group } from '@mantine/core';
import { Role, UserStatus } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';

const ROLE_LABELS: Record<number, { key: string; color: string }> = {
  [Role.common]: { key: 'common', color: 'gray' },
  [Role.admin]: { key: 'admin', color: 'yellow' },
  [Role.root]: { key: 'root', color: 'orange' },
};

export function RoleBadge({ role }: { role: number }) {
  const { t } = useTranslation();
  const label = ROLE_LABELS[role] ?? { key: 'unknown', color: 'red' };
  return (
    <Badge variant="light" color={label.color}>
      {t(`users.roles.${label.key}`)}
    </Badge>
  );
}

const STATUS_LABELS: Record<number, { key: string; color: string }> = {
  [UserStatus.enabled]: { key: 'enabled', color: 'green' },
  [UserStatus.disabled]: { key: 'disabled', color: 'red' },
};

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const label = STATUS_LABELS[status] ?? { key: 'unknown', color: 'gray' };
  return (
    <Badge variant="outline" color={label.color}>
      {t(`users.statuses.${label.key}`)}
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
