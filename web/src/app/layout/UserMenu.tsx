import { Button, Group } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '../../lib/session';

// Mantine's Menu (with floating-ui) loads for signed-in users only, not on the sign-in page.
const SignedInMenu = lazy(() => import('./SignedInMenu'));

/** Login and register buttons for visitors; a dropdown with logout for signed-in users. */
export function UserMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const user = useSessionUser();

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
    // The placeholder has no test id: tests wait for the working menu.
    <Suspense
      fallback={
        <Button variant="light" size="compact-sm" maw={180}>
          {user.username}
        </Button>
      }
    >
      <SignedInMenu user={user} onNavigate={onNavigate} />
    </Suspense>
  );
}
