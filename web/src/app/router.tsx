import type { ReactNode } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { LoginPage } from '../features/auth/components/LoginPage';
import { AppLayout } from './layout/AppLayout';
import { lazyPage } from './lazy-page';
import { NotFoundPage } from './NotFoundPage';
import { RequireAdmin, RequireUser } from './RequireUser';
import { PageOutlet } from './RouteErrorBoundary';

const guarded = (page: ReactNode) => <RequireUser>{page}</RequireUser>;
const adminOnly = (page: ReactNode) => <RequireAdmin>{page}</RequireAdmin>;

const home = () => lazyPage(() => import('../features/home/components/HomePage'), 'HomePage', 'home');
const channelForm = () =>
  adminOnly(
    lazyPage(() => import('../features/channels/components/ChannelFormPage'), 'ChannelFormPage', 'channel'),
  );
const tokenForm = () =>
  guarded(lazyPage(() => import('../features/tokens/components/TokenFormPage'), 'TokenFormPage', 'token'));
const redemptionForm = () =>
  adminOnly(
    lazyPage(
      () => import('../features/redemptions/components/RedemptionFormPage'),
      'RedemptionFormPage',
      'redemption',
    ),
  );
const userEditPage = () =>
  lazyPage(() => import('../features/users/components/UserEditPage'), 'UserEditPage', 'user');

/** Every route of spec section 2; each page but the sign-in one is its own chunk. */
const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        element: <PageOutlet />,
        children: [
          { path: '/', element: home() },
          {
            path: '/login',
            // Part of the first download: the page most first visits open, no extra request.
            element: <LoginPage />,
          },
          {
            path: '/register',
            element: lazyPage(
              () => import('../features/auth/components/RegisterPage'),
              'RegisterPage',
              'register',
            ),
          },
          {
            path: '/reset',
            element: lazyPage(() => import('../features/auth/components/ResetPage'), 'ResetPage', 'reset'),
          },
          {
            path: '/user/reset',
            element: lazyPage(
              () => import('../features/auth/components/ResetConfirmPage'),
              'ResetConfirmPage',
              'reset',
            ),
          },
          {
            path: '/oauth/github',
            element: lazyPage(
              () => import('../features/auth/components/GitHubCallbackPage'),
              'GitHubCallbackPage',
              'oauth',
            ),
          },
          {
            path: '/oauth/oidc',
            element: lazyPage(
              () => import('../features/auth/components/OidcCallbackPage'),
              'OidcCallbackPage',
              'oauth',
            ),
          },
          {
            path: '/oauth/lark',
            element: lazyPage(
              () => import('../features/auth/components/LarkCallbackPage'),
              'LarkCallbackPage',
              'oauth',
            ),
          },
          {
            path: '/channel',
            element: adminOnly(
              lazyPage(
                () => import('../features/channels/components/ChannelsPage'),
                'ChannelsPage',
                'channel',
              ),
            ),
          },
          { path: '/channel/add', element: channelForm() },
          { path: '/channel/edit/:id', element: channelForm() },
          {
            path: '/token',
            element: guarded(
              lazyPage(() => import('../features/tokens/components/TokensPage'), 'TokensPage', 'token'),
            ),
          },
          { path: '/token/add', element: tokenForm() },
          { path: '/token/edit/:id', element: tokenForm() },
          {
            path: '/redemption',
            element: adminOnly(
              lazyPage(
                () => import('../features/redemptions/components/RedemptionsPage'),
                'RedemptionsPage',
                'redemption',
              ),
            ),
          },
          { path: '/redemption/add', element: redemptionForm() },
          { path: '/redemption/edit/:id', element: redemptionForm() },
          {
            path: '/user',
            element: adminOnly(
              lazyPage(() => import('../features/users/components/UsersPage'), 'UsersPage', 'user'),
            ),
          },
          {
            path: '/user/add',
            element: adminOnly(
              lazyPage(() => import('../features/users/components/UserAddPage'), 'UserAddPage', 'user'),
            ),
          },
          { path: '/user/edit', element: guarded(userEditPage()) },
          { path: '/user/edit/:id', element: adminOnly(userEditPage()) },
          {
            path: '/setting',
            element: guarded(
              lazyPage(
                () => import('../features/settings/components/SettingsPage'),
                'SettingsPage',
                'setting',
              ),
            ),
          },
          {
            path: '/topup',
            element: guarded(
              lazyPage(() => import('../features/topup/components/TopupPage'), 'TopupPage', 'topup'),
            ),
          },
          {
            path: '/log',
            element: guarded(
              lazyPage(() => import('../features/logs/components/LogsPage'), 'LogsPage', 'log'),
            ),
          },
          {
            path: '/video',
            element: guarded(
              lazyPage(() => import('../features/videos/components/VideoJobsPage'), 'VideoJobsPage', 'video'),
            ),
          },
          {
            path: '/pricing',
            element: lazyPage(
              () => import('../features/pricing/components/PricingPage'),
              'PricingPage',
              'pricing',
            ),
          },
          {
            path: '/playground',
            element: guarded(
              lazyPage(
                () => import('../features/playground/components/PlaygroundPage'),
                'PlaygroundPage',
                'playground',
              ),
            ),
          },
          {
            path: '/audit',
            element: adminOnly(
              lazyPage(() => import('../features/audit/components/AuditPage'), 'AuditPage', 'audit'),
            ),
          },
          {
            path: '/api-reference',
            element: lazyPage(
              () => import('../features/api-reference/components/ApiReferencePage'),
              'ApiReferencePage',
              'apiReference',
            ),
          },
          {
            path: '/about',
            element: lazyPage(() => import('../features/home/components/AboutPage'), 'AboutPage', 'about'),
          },
          {
            path: '/chat',
            element: lazyPage(() => import('../features/home/components/ChatPage'), 'ChatPage', 'chat'),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/**
 * The routes, for a BrowserRouter: the console uses no loaders or actions, and the declarative router
 * leaves the data router's code out of the first download.
 */
export function ConsoleRoutes() {
  return useRoutes(routes);
}
