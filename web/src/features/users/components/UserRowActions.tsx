import { isAdminRole, isRootRole, UserStatus } from '@switchyard/contract/roles';
import type { ManageAction } from '@switchyard/contract/users';
import { useTranslation } from 'react-i18next';
import { RowActions, RowButton, RowDeleteButton, RowEditButton } from '../../../components/RowActions';
import { useSessionUser } from '../../../lib/session';
import { useManageUser } from '../api/manage-user';
import type { UserRow } from '../api/users-list';

/**
 * Promote, demote, delete (confirmed), disable/enable and edit; all off for super-admin rows and for
 * the viewer's own row (an administrator's list shows it), which is edited on the personal page.
 * Demote only for an administrator: a common user has no role below.
 */
export function UserRowActions({ user, wrap = false }: { user: UserRow; wrap?: boolean }) {
  const { t } = useTranslation();
  const manage = useManageUser();
  const own = useSessionUser()?.id === user.id;
  const run = (action: ManageAction) => manage.mutate({ username: user.username, action });
  const off = isRootRole(user.role) || own || manage.isPending;
  const enabled = user.status === UserStatus.enabled;

  return (
    <RowActions wrap={wrap}>
      <RowButton
        color="green"
        label={t('users.actions.promote')}
        disabled={off}
        onClick={() => run('promote')}
      />
      <RowButton
        color="yellow"
        label={t('users.actions.demote')}
        disabled={off || !isAdminRole(user.role)}
        onClick={() => run('demote')}
      />
      <RowDeleteButton
        disabled={off}
        label={t('users.actions.delete')}
        confirmLabel={t('users.actions.deleteUser', { username: user.username })}
        onConfirm={() => run('delete')}
      />
      <RowButton
        label={enabled ? t('users.actions.disable') : t('users.actions.enable')}
        disabled={off}
        onClick={() => run(enabled ? 'disable' : 'enable')}
      />
      <RowEditButton label={t('users.actions.edit')} to={own ? '/user/edit' : `/user/edit/${user.id}`} />
    </RowActions>
  );
}
