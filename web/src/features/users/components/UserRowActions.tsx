import { Button, Group } from '@mantine/core';
import { isRootRole, UserStatus } from '@switchyard/contract/roles';
import type { ManageAction } from '@switchyard/contract/users';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { useManageUser } from '../api/manage-user';
import type { UserRow } from '../api/users-list';

/** Promote, demote, delete (confirmed), disable/enable and edit; all off for super-admin rows. */
export function UserRowActions({ user, wrap = false }: { user: UserRow; wrap?: boolean }) {
  const { t } = useTranslation();
  const manage = useManageUser();
  const locked = isRootRole(user.role);
  const run = (action: ManageAction) => manage.mutate({ username: user.username, action });
  const pending = manage.isPending;

  return (
    <Group gap={6} wrap={wrap ? 'wrap' : 'nowrap'}>
      <Button
        size="compact-sm"
        color="green"
        variant="light"
        disabled={locked || pending}
        onClick={() => run('promote')}
      >
        {t('users.actions.promote')}
      </Button>
      <Button
        size="compact-sm"
        color="yellow"
        variant="light"
        disabled={locked || pending}
        onClick={() => run('demote')}
      >
        {t('users.actions.demote')}
      </Button>
      <ConfirmButton
        size="compact-sm"
        color="red"
        variant="light"
        disabled={locked || pending}
        label={t('users.actions.delete')}
        confirmLabel={t('users.actions.deleteUser', { username: user.username })}
        onConfirm={() => run('delete')}
      />
      <Button
        size="compact-sm"
        color="gray"
        variant="light"
        disabled={locked || pending}
        onClick={() => run(user.status === UserStatus.enabled ? 'disable' : 'enable')}
      >
        {user.status === UserStatus.enabled ? t('users.actions.disable') : t('users.actions.enable')}
      </Button>
      <Button size="compact-sm" variant="default" component={Link} to={`/user/edit/${user.id}`}>
        {t('users.actions.edit')}
      </Button>
    </Group>
  );
}
