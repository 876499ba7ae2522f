import { describe, expect, it } from 'vitest';
import { isActive, navItemsFor } from './nav-items';

const keys = (role: number | undefined, chat?: string) => navItemsFor(role, chat).map((item) => item.key);

describe('menu by role', () => {
  it('shows admins every section', () => {
    expect(keys(10)).toEqual([
      'home',
      'channel',
      'token',
      'redemption',
      'topup',
      'user',
      'log',
      'video',
      'pricing',
      'playground',
      'audit',
      'setting',
      'about',
    ]);
    expect(keys(100)).toContain('user');
  });

  it('hides channel, redemption, user and audit from normal users, and the playground from visitors', () => {
    expect(keys(1)).toEqual([
      'home',
      'token',
      'topup',
      'log',
      'video',
      'pricing',
      'playground',
      'setting',
      'about',
    ]);
    expect(keys(undefined)).toEqual(['home', 'token', 'topup', 'log', 'video', 'setting', 'about']);
  });

  it('shows visitors the price list only when the server makes it public', () => {
    expect(navItemsFor(undefined, '', true).map((item) => item.key)).toContain('pricing');
    expect(navItemsFor(undefined, '', true).map((item) => item.key)).not.toContain('playground');
  });

  it('offers chat only when a chat link is configured', () => {
    expect(keys(1, 'https://chat.example.com')).toContain('chat');
    expect(keys(1, '')).not.toContain('chat');
  });

  it('marks the section of nested routes', () => {
    const user = navItemsFor(10, '').find((item) => item.key === 'user')!;
    const home = navItemsFor(10, '').find((item) => item.key === 'home')!;
    expect(isActive(user, '/user/edit/3')).toBe(true);
    expect(isActive(user, '/users')).toBe(false);
    expect(isActive(home, '/')).toBe(true);
    expect(isActive(home, '/token')).toBe(false);
  });

  it("marks Settings, not Users, on one's own profile", () => {
    const [user, setting] = ['user', 'setting'].map(
      (key) => navItemsFor(10, '').find((item) => item.key === key)!,
    );
    expect(isActive(user!, '/user/edit')).toBe(false);
    expect(isActive(setting!, '/user/edit')).toBe(true);
  });
});
