import { Alert, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { isRoot, useSessionUser } from '../../../lib/session';
import { useEditableUser } from '../api/user-edit';
import { UserEditForm } from './UserEditForm';
import { UserTwoFactor } from './UserTwoFactor';

/** /user/edit edits oneself; /user/edit/{id} lets an admin edit another user, group and quota included;
 * root also sees the user's two-factor sign-in and can turn it off. */
export function UserEditPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const self = id === null;
  const user = useEditableUser(id);
  const root = isRoot(useSessionUser());

  return (
    <>
      <PageHeader title={self ? t('userEdit.selfTitle') : t('userEdit.title')} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} maw={860}>
        {user.isLoading && <PageLoading page={t('pageNames.user')} />}
        {user.isError && (
          <Alert color="red" variant="light">
            <Text size="sm">{t('common.loadFailed')}</Text>
          </Alert>
        )}
        {user.data && <UserEditForm key={user.data.id} user={user.data} self={self} />}
      </Paper>
      {root && id !== null && user.data && <UserTwoFactor id={id} />}
    </>
  );
}
