import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ContextOptions, newContext } from './browser';

export const ROOT = { username: 'root', password: '123456' };

/** Sign in through the login form (the path a person takes). */
export async function loginThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/** Wait until a toast containing `text` has been shown (it may already have closed). */
export async function expectToast(page: Page, text: string): Promise<void> {
  try {
    await page.waitForFunction(
      (wanted) =>
        ((window as unknown as { __toasts?: string[] }).__toasts ?? []).some((t) => t.includes(wanted)),
      text,
    );
  } catch (error) {
    // Say what was shown instead: a failure toast names the cause.
    const shown = await page
      .evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? [])
      .catch(() => ['(page gone)']);
    throw new Error(`no toast "${text}" at ${page.url()}; toasts shown: ${JSON.stringify(shown)}`, {
      cause: error,
    });
  }
}

/**
 * Wait until no toast is on screen. A toast at the bottom left can sit over a long form's Submit
 * button once it is scrolled just into view, and a pointer over a toast keeps it open: a click
 * there would wait on it for ever.
 */
export async function waitForToastsGone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('.mantine-Notification-root').length === 0);
}

/** Wait until running animations and transitions (dialogs, toasts, loaders) have finished, for a clean screenshot. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
}

/** Wait until the path (without query) equals `path`. */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

/**
 * A signed-in session without the form: log in through the API with the context's own
 * cookie jar and store the user the way the console does after a login.
 */
export async function signInContext(
  context: BrowserContext,
  username: string,
  password: string,
): Promise<void> {
  const response = await context.request.post('/api/user/login', { data: { username, password } });
  const body = (await response.json()) as { success: boolean; message: string; data: unknown };
  if (!body.success) throw new Error(`login as ${username} failed: ${body.message}`);
  // Store the user the way a login does; local storage is shared by the context's pages.
  const page = await context.newPage();
  await page.goto('/no-such-page-for-seeding');
  await page.evaluate((user: string) => window.localStorage.setItem('user', user), JSON.stringify(body.data));
  await page.close();
}

/**
 * A fresh context (language, window size) already signed in as `user`: logged in through the API,
 * the context starts with the session cookie and the stored user, as after a login, without a page load.
 */
export async function signedInContext(
  browser: Browser,
  options: ContextOptions,
  user: { username: string; password: string },
): Promise<BrowserContext> {
  const response = await fetch(`${options.baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(user),
  });
  const body = (await response.json()) as { success: boolean; message: string; data: unknown };
  if (!body.success) throw new Error(`login as ${user.username} failed: ${body.message}`);
  const [pair = ''] = (response.headers.get('set-cookie') ?? '').split(';');
  const separator = pair.indexOf('=');
  const { hostname, origin } = new URL(options.baseUrl);
  return newContext(browser, {
    ...options,
    storageState: {
      cookies: [
        {
          name: pair.slice(0, separator),
          value: pair.slice(separator + 1),
          domain: hostname,
          path: '/',
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [{ origin, localStorage: [{ name: 'user', value: JSON.stringify(body.data) }] }],
    },
  });
}

/** A new page of a fresh signed-in context (as signedInContext); the context joins `contexts`, which the file closes. */
export async function signedInPage(
  browser: Browser,
  options: ContextOptions,
  user: { username: string; password: string },
  contexts: BrowserContext[],
): Promise<Page> {
  const context = await signedInContext(browser, options, user);
  contexts.push(context);
  return context.newPage();
}

/** Admin calls for test set-up, on an API session of their own. */
export class AdminApi {
  private cookie = '';

  constructor(private readonly baseUrl: string) {}

  async login(username = ROOT.username, password = ROOT.password): Promise<void> {
    const response = await fetch(`${this.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const setCookie = response.headers.get('set-cookie') ?? '';
    this.cookie = setCookie.split(';')[0] ?? '';
    const body = (await response.json()) as { success: boolean; message: string };
    if (!body.success) throw new Error(`admin login failed: ${body.message}`);
  }

  async call<T>(method: string, path: string, data?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      // The console's header: the server refuses its state-changing GETs without a sign of this site.
      headers: {
        'Content-Type': 'application/json',
        Cookie: this.cookie,
        'X-Requested-With': 'switchyard-console',
      },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    const body = (await response.json()) as { success: boolean; message: string; data: T };
    if (!body.success) throw new Error(`${method} ${path} failed: ${body.message}`);
    return body.data;
  }

  /** Saves system options one by one, as the settings page does. */
  async setOptions(options: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(options))
      await this.call('PUT', '/api/option/', { key, value });
  }

  createUser(username: string, password: string, displayName = ''): Promise<unknown> {
    return this.call('POST', '/api/user/', { username, password, display_name: displayName });
  }

  /** A common user, then promoted to administrator. */
  async createAdmin(username: string, password: string): Promise<void> {
    await this.createUser(username, password);
    await this.call('POST', '/api/user/manage', { username, action: 'promote' });
  }
}
