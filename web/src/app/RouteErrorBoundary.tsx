import { Component, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { RouteError } from './RouteError';

interface BoundaryProps {
  children: ReactNode;
  /** A new value (the next address) clears a shown error. */
  resetKey?: string;
}

interface BoundaryState {
  failure: { error: unknown } | null;
  resetKey?: string;
}

/** A render error (a page's own, or a chunk that failed to download) shows RouteError, never a blank page. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failure: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failure: null, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failure ? <RouteError error={this.state.failure.error} /> : this.props.children;
  }
}

/** Where the pages render: a page that fails shows its error inside the layout, until the next address. */
export function PageOutlet() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Outlet />
    </RouteErrorBoundary>
  );
}
