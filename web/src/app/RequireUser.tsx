import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isAdmin, type LoginRedirectState, useSessionUser } from '../lib/session';
import { AdminOnlyPage } from './AdminOnlyPage';

/** List routes need a stored user; others go to /login, remembering where they were going. */
export function RequireUser({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  const location = useLocation();
  if (!user) {
    const state: LoginRedirectState = { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return children;
}

/**
 * Administrators' pages: a signed-in user below admin sees a page saying so instead of empty lists
 * and refused calls. The server checks every call on its own; this only spares the confusion.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  return <RequireUser>{isAdmin(user) ? children : <AdminOnlyPage />}</RequireUser>;
}
