import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, settle, waitForPath } from '../src/console';
import { type FakeGitHub, routeGitHubAuthorize, startFakeGitHub } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

const APP = { clientId: 'gh-e2e-client', clientSecret: 'gh-e2e-secret' };

let github: FakeGitHub;
let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

interface SignedInUser {
  id: number;
  username: string;
  display_name: string;
  email: string;
  github_id: string;
}

/** A fresh visitor whose trips to github.com's authorise page reach the fake instead. */
async function visitorPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await newContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en', viewport });
  contexts.push(context);
  await routeGitHubAuthorize(context, github);
  return context.newPage();
}

/** Log in with the GitHub button on /login; answers the user the session now belongs to. */
async function logInWithGitHub(page: Page): Promise<SignedInUser> {
  await page.goto('/login');
  const stateCall = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/oauth/state');
  const authorize = page.waitForRequest((request) =>
    request.url().startsWith('https://github.com/login/oauth/authorize?'),
  );
  await page.getByRole('button', { name: 'GitHub', exact: true }).click();
  await stateCall;
  // The console left for GitHub's authorise page with the app's client id and the session's state.
  const asked = new URL((await authorize).url()).searchParams;
  expect(asked.get('client_id')).toBe(APP.clientId);
  expect(asked.get('scope')).toBe('user:email');
  const state = asked.get('state') ?? '';
  expect(state).not.toBe('');
  // The fake's authorise page sent the browser back with a code and the same state.
  await page.waitForURL(
    (url) =>
      url.pathname === '/oauth/github' &&
      url.searchParams.get('state') === state &&
      url.searchParams.has('code'),
  );
  await waitForPath(page, '/');
  await expectToast(page, 'Login successful!');
  const self = await page.context().request.get('/api/user/self');
  const user = ((await self.json()) as { data: SignedInUser }).data;
  // The console stored the same user the session belongs to.
  const stored = JSON.parse((await page.evaluate(() => window.localStorage.getItem('user'))) ?? '{}');
  expect(stored).toMatchObject({ id: user.id, username: user.username });
  return user;
}

beforeAll(async () => {
  github = await startFakeGitHub({
    ...APP,
    account: { login: 'octo-e2e', name: 'Octo E2E', email: 'octo@example.com' },
  });
  server = await startServer({ GITHUB_OAUTH_URL: github.url, GITHUB_API_URL: github.url });
  github.callbackUrl = `${server.baseUrl}/oauth/github`;
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  const options: Record<string, string> = {
    GitHubClientId: APP.clientId,
    GitHubClientSecret: APP.clientSecret,
    GitHubOAuthEnabled: 'true',
  };
  await admin.setOptions(options);
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
  await github?.close();
});

describe('login with GitHub', () => {
  let first: SignedInUser;

  it('creates a user on the first login (1280 px)', async () => {
    const before = await admin.call<unknown[]>('GET', '/api/user/search?keyword=github_');
    expect(before).toEqual([]);
    const page = await visitorPage(DESKTOP);
    first = await logInWithGitHub(page);
    expect(first).toMatchObject({
      github_id: 'octo-e2e',
      display_name: 'Octo E2E',
      email: 'octo@example.com',
    });
    expect(first.username).toMatch(/^github_\d+$/);
    // The code went through the gateway to the fake's token endpoint, once.
    expect(github.exchanged).toEqual(['gh-code-1']);
    await page.locator('[data-testid="user-menu"]:visible', { hasText: first.username }).waitFor();
    // The header shows who signed in once the toast has gone.
    await page.locator('.mantine-Notification-root').waitFor({ state: 'detached' });
    await settle(page);
    await screenshot(page, 'flows/github-login-1280');
  });

  it('finds the same user on a second login, in another browser (375 px)', async () => {
    const page = await visitorPage(PHONE);
    const second = await logInWithGitHub(page);
    expect(second).toEqual(first);
    expect(github.exchanged).toEqual(['gh-code-1', 'gh-code-2']);
    const users = await admin.call<Array<{ id: number }>>('GET', '/api/user/search?keyword=github_');
    expect(users.map((user) => user.id)).toEqual([first.id]);
    await page.locator('.mantine-Notification-root').waitFor({ state: 'detached' });
    await settle(page);
    await screenshot(page, 'flows/github-login-375');
  });

  it('refuses a callback whose state is not the one the session was given', async () => {
    const page = await visitorPage(DESKTOP);
    await page.goto('/login');
    await page.goto('/oauth/github?code=gh-code-forged&state=not-the-state');
    await expectToast(page, 'The state is empty or does not match; please start signing in again');
    expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    expect((await page.context().request.get('/api/user/self')).status()).toBe(401);
    expect(github.exchanged).not.toContain('gh-code-forged');
  });
});
