import type { Browser, Route } from 'playwright-core';
import { expect } from 'vitest';
import { type Language, newContext, screenshot } from './browser';
import { ROOT, signInContext } from './console';

/** Every route of spec section 2 (with sample ids and queries), named for its screenshot. */
export const ROUTES: Array<{
  name: string;
  path: string;
  signedIn: boolean;
  /** An API call held unanswered until the screenshot is taken, to capture the page while it waits. */
  holdApi?: string;
}> = [
  { name: 'home', path: '/', signedIn: false },
  { name: 'login', path: '/login', signedIn: false },
  { name: 'login-expired', path: '/login?expired=true', signedIn: false },
  { name: 'register', path: '/register', signedIn: false },
  { name: 'reset', path: '/reset', signedIn: false },
  { name: 'user-reset', path: '/user/reset?email=someone%40example.com&token=abc', signedIn: false },
  // The callbacks trade the code at once and move on when that fails: hold the exchange.
  {
    name: 'oauth-github',
    path: '/oauth/github?code=tour-code&state=tour-state',
    signedIn: false,
    holdApi: '**/api/oauth/github?**',
  },
  {
    name: 'oauth-lark',
    path: '/oauth/lark?code=tour-code&state=tour-state',
    signedIn: false,
    holdApi: '**/api/oauth/lark?**',
  },
  { name: 'about', path: '/about', signedIn: false },
  { name: 'api-reference', path: '/api-reference', signedIn: false },
  { name: 'chat', path: '/chat', signedIn: false },
  { name: 'not-found', path: '/no/such/page', signedIn: false },
  { name: 'home-signed-in', path: '/', signedIn: true },
  { name: 'channel', path: '/channel', signedIn: true },
  { name: 'channel-add', path: '/channel/add', signedIn: true },
  { name: 'channel-edit', path: '/channel/edit/1', signedIn: true },
  { name: 'token', path: '/token', signedIn: true },
  { name: 'token-add', path: '/token/add', signedIn: true },
  { name: 'token-edit', path: '/token/edit/1', signedIn: true },
  { name: 'redemption', path: '/redemption', signedIn: true },
  { name: 'redemption-add', path: '/redemption/add', signedIn: true },
  { name: 'redemption-edit', path: '/redemption/edit/1', signedIn: true },
  { name: 'user', path: '/user', signedIn: true },
  { name: 'user-add', path: '/user/add', signedIn: true },
  { name: 'user-edit-self', path: '/user/edit', signedIn: true },
  { name: 'user-edit-other', path: '/user/edit/2', signedIn: true },
  { name: 'setting', path: '/setting', signedIn: true },
  { name: 'topup', path: '/topup', signedIn: true },
  { name: 'log', path: '/log', signedIn: true },
  { name: 'audit', path: '/audit', signedIn: true },
];

/** Visit every route as a visitor and as root, check it is not blank, and save a screenshot. */
export async function tourRoutes(
  browser: Browser,
  baseUrl: string,
  language: Language,
  viewport: { width: number; height: number },
): Promise<void> {
  const label = `${language}-${viewport.width}`;
  const visitor = await newContext(browser, { baseUrl, language, viewport });
  const root = await newContext(browser, { baseUrl, language, viewport });
  await signInContext(root, ROOT.username, ROOT.password);
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
      await page.waitForFunction(() => (document.querySelector('main')?.textContent ?? '').trim().length > 0);
      await page.evaluate(() => document.fonts.ready);
      const text = ((await page.locator('main').textContent()) ?? '').trim();
      expect(text.length, `${route.path} (${label}) renders content`).toBeGreaterThan(0);
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
