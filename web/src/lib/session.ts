import { isAdminRole, isRootRole } from '@switchyard/contract/roles';
import { readJson, StorageKey, writeItem } from './storage';
import { createStore, useStore } from './store';

/** What the console keeps about the signed-in user (the login answer). */
export interface SessionUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
}

const sessionStore = createStore<SessionUser | null>(null);

/** Start-up: take the user saved by an earlier login. */
export function restoreSession(): void {
  sessionStore.set(readJson<SessionUser>(StorageKey.user));
}

export function getSessionUser(): SessionUser | null {
  return sessionStore.get() ?? readJson<SessionUser>(StorageKey.user);
}

export function saveSession(user: SessionUser): void {
  writeItem(StorageKey.user, JSON.stringify(user));
  sessionStore.set(user);
}

export function clearSession(): void {
  writeItem(StorageKey.user, null);
  sessionStore.set(null);
}

export function useSessionUser(): SessionUser | null {
  return useStore(sessionStore);
}

export const isAdmin = (user: SessionUser | null): boolean => user !== null && isAdminRole(user.role);
export const isRoot = (user: SessionUser | null): boolean => user !== null && isRootRole(user.role);

/** Router state of /login: where the guard sent the visitor from, so login can bring them back. */
export interface LoginRedirectState {
  from?: string;
}
