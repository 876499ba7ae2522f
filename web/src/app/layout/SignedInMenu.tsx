import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import type { SessionUser } from '../../lib/session';

/** The signed-in user's dropdown with logout; a chunk of its own (see UserMenu). */
export default function SignedInMenu({ user, onNavigate }: { user: SessionUser; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="light" size="compact-sm" data-testid="user-menu" maw={180}>
          {user.username}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.signedInAs', { name: user.display_name || user.username })}</Menu.Label>
        <Menu.Item
          color="red"
          onClick={() => {
            onNavigate?.();
            logout.mutate(undefined, { onSettled: () => navigate('/login') });
          }}
        >
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
