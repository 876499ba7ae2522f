import { Box, Burger, Collapse, Divider, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getLogo, getSystemName, useServerStatus } from '../../lib/server-status';
import { useSessionUser } from '../../lib/session';
import classes from './Header.module.css';
import { LanguageSwitch } from './LanguageSwitch';
import { NavLinks } from './NavLinks';
import { navItemsFor } from './nav-items';
import { UserMenu } from './UserMenu';

export function Header() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const status = useServerStatus();
  const [opened, { toggle, close }] = useDisclosure(false);
  const items = navItemsFor(user?.role, status?.chat_link, status?.public_pricing);
  const name = status?.system_name || getSystemName();

  return (
    <Box component="header" className={classes.header}>
      <Group h={56} px="md" justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="lg" wrap="nowrap" miw={0}>
          <UnstyledButton component={Link} to="/" className={classes.brand} onClick={close}>
            <Image src={status?.logo || getLogo()} w={28} h={28} alt="" fit="contain" />
            <Text fw={700} truncate="end" maw={180}>
              {name}
            </Text>
          </UnstyledButton>
          <Box visibleFrom="lg">
            <NavLinks items={items} />
          </Box>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <LanguageSwitch />
          <Box visibleFrom="lg">
            <UserMenu />
          </Box>
          <Burger
            hiddenFrom="lg"
            opened={opened}
            onClick={toggle}
            size="sm"
            aria-label={t('nav.toggleMenu')}
            aria-expanded={opened}
          />
        </Group>
      </Group>
      <Collapse expanded={opened} hiddenFrom="lg" keepMounted={false}>
        <Box px="md" pb="md" data-testid="mobile-menu">
          <NavLinks items={items} vertical onNavigate={close} />
          <Divider my="sm" />
          <UserMenu onNavigate={close} />
        </Box>
      </Collapse>
    </Box>
  );
}
