import { Button, Group, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import { useSessionUser } from '../../lib/session';

/** Login and register buttons for visitors; a dropdown with logout for signed-in users. */
export function UserMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const navigate = useNavigate();
  const logout = useLogout();

  if (!user) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Button component={Link} to="/login" variant="default" size="compact-sm" onClick={onNavigate}>
          {t('nav.login')}
        </Button>
        <Button component={Link} to="/register" size="compact-sm" onClick={onNavigate}>
          {t('nav.register')}
        </Button>
      </Group>
    );
  }

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
