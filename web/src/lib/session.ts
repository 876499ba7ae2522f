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

/** Set while this console ends its own session (logout, sign out everywhere, account deletion). */
let leaving = false;

/** Start-up: take the user saved by an earlier login. */
export function restoreSession(): void {
  sessionStore.set(readJson<SessionUser>(StorageKey.user));
}

export function getSessionUser(): SessionUser | null {
  return sessionStore.get() ?? readJson<SessionUser>(StorageKey.user);
}

export function saveSession(user: SessionUser): void {
  leaving = false;
  writeItem(StorageKey.user, JSON.stringify(user));
  sessionStore.set(user);
}

export function clearSession(): void {
  leaving = false;
  writeItem(StorageKey.user, null);
  sessionStore.set(null);
}

/** This console is about to end its own session: a 401 from a call still in flight is then expected. */
export function beginLeaving(): void {
  leaving = true;
}

/** The call that was to end the session failed, so the session goes on. */
export function cancelLeaving(): void {
  leaving = false;
}

/**
 * Whether a 401 means the session expired under the user: not when no one is signed in here, and not
 * while this console is ending the session itself (a call that raced the logout is refused, expectedly).
 */
export const sessionCanExpire = (): boolean => !leaving && getSessionUser() !== null;

export function useSessionUser(): SessionUser | null {
  return useStore(sessionStore);
}

export const isAdmin = (user: SessionUser | null): boolean => user !== null && isAdminRole(user.role);
export const isRoot = (user: SessionUser | null): boolean => user !== null && isRootRole(user.role);

/** Router state of /login: where the guard sent the visitor from, so login can bring them back. */
export interface LoginRedirectState {
  from?: string;
  /** An OAuth sign-in passed its first step: the login page asks for the two-factor code. */
  twoFactor?: boolean;
  /** …and offers the user's passkey. */
  passkey?: boolean;
}
