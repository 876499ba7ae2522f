import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { type LoginRedirectState, useSessionUser } from '../lib/session';

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
