import { Group, Stack, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import classes from './NavLinks.module.css';
import type { NavItem } from './nav-items';
import { isActive } from './nav-items';

interface NavLinksProps {
  items: NavItem[];
  vertical?: boolean;
  onNavigate?: () => void;
}

export function NavLinks({ items, vertical = false, onNavigate }: NavLinksProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const links = items.map((item) => (
    <UnstyledButton
      key={item.key}
      component={Link}
      to={item.to}
      className={classes.link}
      data-active={isActive(item, pathname) || undefined}
      data-nav={item.key}
      onClick={onNavigate}
    >
      {t(`nav.${item.key}`)}
    </UnstyledButton>
  ));
  return vertical ? (
    <Stack gap={2}>{links}</Stack>
  ) : (
    <Group gap={2} wrap="nowrap">
      {links}
    </Group>
  );
}
