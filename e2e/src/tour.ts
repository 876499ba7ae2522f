import type { Browser, Route } from 'playwright-core';
import { type Language, newContext, screenshot } from './browser';
import { ROOT, signedInContext } from './console';

/** Every route of spec section 2 (with sample ids and queries), named for its screenshot. */
export const ROUTES: Array<{
  name: string;
  path: string;
  signedIn: boolean;
  /** A text the page must show in each language (a heading, a group, a field's label), proving it rendered. */
  shows: Record<Language, string>;
  /** An API call held unanswered until the screenshot is taken, to capture the page while it waits. */
  holdApi?: string;
}> = [
  {
    name: 'home',
    path: '/',
    signedIn: false,
    shows: { en: 'Welcome to Switchyard', zh: '欢迎使用 Switchyard' },
  },
  { name: 'login', path: '/login', signedIn: false, shows: { en: 'Log in to your account', zh: '用户登录' } },
  {
    name: 'login-expired',
    path: '/login?expired=true',
    signedIn: false,
    shows: { en: 'Log in to your account', zh: '用户登录' },
  },
  {
    name: 'register',
    path: '/register',
    signedIn: false,
    shows: { en: 'Create an account', zh: '新用户注册' },
  },
  { name: 'reset', path: '/reset', signedIn: false, shows: { en: 'Reset your password', zh: '密码重置' } },
  {
    name: 'user-reset',
    path: '/user/reset?email=someone%40example.com&token=abc',
    signedIn: false,
    shows: { en: 'Confirm password reset', zh: '密码重置确认' },
  },
  // The callbacks trade the code at once and move on when that fails: hold the exchange.
  {
    name: 'oauth-github',
    path: '/oauth/github?code=tour-code&state=tour-state',
    signedIn: false,
    holdApi: '**/api/oauth/github?**',
    shows: { en: 'Signing you in with GitHub', zh: '正在通过 GitHub 登录' },
  },
  {
    name: 'oauth-lark',
    path: '/oauth/lark?code=tour-code&state=tour-state',
    signedIn: false,
    holdApi: '**/api/oauth/lark?**',
    shows: { en: 'Signing you in with Lark', zh: '正在通过 Lark 登录' },
  },
  { name: 'about', path: '/about', signedIn: false, shows: { en: 'About', zh: '关于' } },
  { name: 'api-reference', path: '/api-reference', signedIn: false, shows: { en: 'Account', zh: '账户' } },
  { name: 'chat', path: '/chat', signedIn: false, shows: { en: 'Chat', zh: '聊天' } },
  {
    name: 'not-found',
    path: '/no/such/page',
    signedIn: false,
    shows: { en: 'Page not found', zh: '未找到页面' },
  },
  { name: 'home-signed-in', path: '/', signedIn: true, shows: { en: 'System status', zh: '系统状况' } },
  { name: 'channel', path: '/channel', signedIn: true, shows: { en: 'Manage channels', zh: '管理渠道' } },
  {
    name: 'channel-add',
    path: '/channel/add',
    signedIn: true,
    shows: { en: 'Create a channel', zh: '创建新的渠道' },
  },
  {
    name: 'channel-edit',
    path: '/channel/edit/1',
    signedIn: true,
    shows: { en: 'Update channel', zh: '更新渠道信息' },
  },
  { name: 'token', path: '/token', signedIn: true, shows: { en: 'My tokens', zh: '我的令牌' } },
  {
    name: 'token-add',
    path: '/token/add',
    signedIn: true,
    shows: { en: 'Create a token', zh: '创建新的令牌' },
  },
  {
    name: 'token-edit',
    path: '/token/edit/1',
    signedIn: true,
    shows: { en: 'Update token', zh: '更新令牌信息' },
  },
  {
    name: 'redemption',
    path: '/redemption',
    signedIn: true,
    shows: { en: 'Manage redemption codes', zh: '管理兑换码' },
  },
  {
    name: 'redemption-add',
    path: '/redemption/add',
    signedIn: true,
    shows: { en: 'Create redemption codes', zh: '创建新的兑换码' },
  },
  {
    name: 'redemption-edit',
    path: '/redemption/edit/1',
    signedIn: true,
    shows: { en: 'Update redemption code', zh: '更新兑换码信息' },
  },
  { name: 'user', path: '/user', signedIn: true, shows: { en: 'Manage users', zh: '管理用户' } },
  {
    name: 'user-add',
    path: '/user/add',
    signedIn: true,
    shows: { en: 'Create a user account', zh: '创建新用户账户' },
  },
  {
    name: 'user-edit-self',
    path: '/user/edit',
    signedIn: true,
    shows: { en: 'Update my profile', zh: '更新个人信息' },
  },
  {
    name: 'user-edit-other',
    path: '/user/edit/2',
    signedIn: true,
    shows: { en: 'Update user info', zh: '更新用户信息' },
  },
  {
    name: 'setting',
    path: '/setting',
    signedIn: true,
    shows: { en: 'Access and invitations', zh: '访问令牌与邀请' },
  },
  { name: 'topup', path: '/topup', signedIn: true, shows: { en: 'Redeem a code', zh: '兑换码充值' } },
  { name: 'log', path: '/log', signedIn: true, shows: { en: 'Usage details', zh: '使用明细' } },
  { name: 'audit', path: '/audit', signedIn: true, shows: { en: 'Audit log', zh: '审计日志' } },
];

/** Visit every route as a visitor and as root, check it shows what it must, and save a screenshot. */
export async function tourRoutes(
  browser: Browser,
  baseUrl: string,
  language: Language,
  viewport: { width: number; height: number },
): Promise<void> {
  const label = `${language}-${viewport.width}`;
  const visitor = await newContext(browser, { baseUrl, language, viewport });
  const root = await signedInContext(browser, { baseUrl, language, viewport }, ROOT);
  // A second account for /user/edit/2 (a repeat run finds it already there).
  await root.request.post('/api/user/', { data: { username: 'tour-user', password: 'tour-password' } });
  const pages = { visitor: await visitor.newPage(), root: await root.newPage() };
  try {
    for (const route of ROUTES) {
      const page = route.signedIn ? pages.root : pages.visitor;
      const held: Route[] = [];
      if (route.holdApi) await page.route(route.holdApi, (call) => void held.push(call));
      await page.goto(route.path);
      await page.locator('main').waitFor();
      // A page may nest a loading placeholder (e.g. a lazily loaded chart) inside its own: wait for all.
      await page.waitForFunction(() => document.querySelector('[data-testid="page-loading"]') === null);
      const shown = page.locator('main').getByText(route.shows[language], { exact: true }).first();
      await shown.waitFor().catch(() => {
        throw new Error(`${route.path} (${label}) does not show "${route.shows[language]}"`);
      });
      await page.evaluate(() => document.fonts.ready);
      await screenshot(page, `${label}/${route.name}`);
      if (route.holdApi) {
        await page.unroute(route.holdApi);
        for (const call of held) await call.abort().catch(() => undefined);
      }
    }
  } finally {
    await visitor.close();
    await root.close();
  }
}
