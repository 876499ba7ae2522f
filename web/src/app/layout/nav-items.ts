import { isAdminRole } from '@switchyard/contract/roles';
import type { enShell } from '../../i18n/en/shell';

export type NavKey = keyof typeof enShell.nav;

export interface NavItem {
  key: NavKey;
  to: string;
  /** Only administrators see it. */
  admin?: boolean;
  /** Shown only when the server has a chat link. */
  needsChatLink?: boolean;
  /** Only signed-in users see it. */
  signedIn?: boolean;
  /** Signed-in users see it; visitors only when the server shows them the price list. */
  pricing?: boolean;
}

const ITEMS: NavItem[] = [
  { key: 'home', to: '/' },
  { key: 'channel', to: '/channel', admin: true },
  { key: 'token', to: '/token' },
  { key: 'redemption', to: '/redemption', admin: true },
  { key: 'topup', to: '/topup' },
  { key: 'user', to: '/user', admin: true },
  { key: 'log', to: '/log' },
  { key: 'video', to: '/video' },
  { key: 'pricing', to: '/pricing', pricing: true },
  { key: 'playground', to: '/playground', signedIn: true },
  { key: 'audit', to: '/audit', admin: true },
  { key: 'setting', to: '/setting' },
  { key: 'about', to: '/about' },
  { key: 'chat', to: '/chat', needsChatLink: true },
];

/** The menu for a role (undefined when nobody is signed in). */
export function navItemsFor(
  role: number | undefined,
  chatLink: string | null | undefined,
  publicPricing = false,
): NavItem[] {
  const signedIn = role !== undefined;
  const admin = signedIn && isAdminRole(role);
  return ITEMS.filter(
    (item) =>
      (!item.admin || admin) &&
      (!item.needsChatLink || Boolean(chatLink)) &&
      (!item.signedIn || signedIn) &&
      (!item.pricing || signedIn || publicPricing),
  );
}

/** One's own profile is edited from Settings, though its address sits under /user. */
const OWN_PROFILE = '/user/edit';

/** Whether the item is the current section ("/user/edit/3" belongs to "/user", "/user/edit" to Settings). */
export function isActive(item: NavItem, pathname: string): boolean {
  if (pathname === OWN_PROFILE) return item.key === 'setting';
  if (item.to === '/') return pathname === '/';
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}
