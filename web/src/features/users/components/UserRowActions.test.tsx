import type { User } from '@switchyard/contract/users';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { clearSession, saveSession } from '../../../lib/session';
import { renderAt } from '../../../test/render';
import { UserRowActions } from './UserRowActions';

const row = (id: number, username: string, role: number): User =>
  ({ id, username, role, status: 1, display_name: username }) as User;

beforeEach(async () => {
  await i18n.changeLanguage('en');
  saveSession({ id: 5, username: 'seer', display_name: '', role: 10, status: 1 });
});
afterEach(() => clearSession());

describe("an administrator's user list", () => {
  it('keeps the actions of its own row off and edits it on the personal page', () => {
    renderAt('/user', '/user', <UserRowActions user={row(5, 'seer', 10)} />);
    expect(screen.getByRole('button', { name: 'Promote' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/user/edit');
  });

  it('manages the rows of the users below it', () => {
    renderAt('/user', '/user', <UserRowActions user={row(9, 'commoner', 1)} />);
    expect(screen.getByRole('button', { name: 'Promote' }).hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/user/edit/9');
  });

  it('offers Demote for an administrator only: a common user has no role below', () => {
    renderAt('/user', '/user', <UserRowActions user={row(9, 'commoner', 1)} />);
    expect(screen.getByRole('button', { name: 'Demote' }).hasAttribute('disabled')).toBe(true);
    cleanup();
    renderAt('/user', '/user', <UserRowActions user={row(8, 'helper', 10)} />);
    expect(screen.getByRole('button', { name: 'Demote' }).hasAttribute('disabled')).toBe(false);
  });
});
