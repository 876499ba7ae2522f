import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell, the build Playwright itself
 * runs headless) where installed, the whole browser otherwise. The same Blink and V8; the shell ran a
 * page's sign-in, loads and screenshot in 0.6 of the time (docs/decisions.md, "Browser tests").
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ||
  '/usr/bin/chromium';
export const ARTIFACTS = resolve(dirname(fileURLToPath(import.meta.url)), '../artifacts');

export type Language = 'zh' | 'en';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** Chromium, headless; Playwright gives every launch a fresh throwaway profile. */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

export interface ContextOptions {
  baseUrl: string;
  language?: Language;
  viewport?: { width: number; height: number };
  /** Cookies and local storage the context starts with (a signed-in session). */
  storageState?: BrowserContextOptions['storageState'];
}

/** A fresh visitor: own cookies and storage, chosen console language and window size. */
export async function newContext(browser: Browser, options: ContextOptions): Promise<BrowserContext> {
  const language = options.language ?? 'en';
  const context = await browser.newContext({
    baseURL: options.baseUrl,
    viewport: options.viewport ?? DESKTOP,
    locale: language === 'zh' ? 'zh-CN' : 'en-US',
    storageState: options.storageState,
  });
  // The console remembers the language under i18nextLng; set it before any page script runs.
  await context.addInitScript((lng: string) => {
    if (!window.localStorage.getItem('i18nextLng')) window.localStorage.setItem('i18nextLng', lng);
  }, language);
  // Remember every toast shown, so a check cannot miss a short one (success toasts last 1.5 s).
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __toasts: seen });
    new MutationObserver(() => {
      for (const node of document.querySelectorAll('.mantine-Notification-root')) {
        const text = node.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  // A click or a wait that needs one rendered frame can take seconds while the CI machine's two cores
  // also run other suites' servers and browsers (a 10 s click once timed out there while scrolling).
  context.setDefaultTimeout(20_000);
  return context;
}

/**
 * Save a screenshot under e2e/artifacts/ for people to look at. Use `fullPage: false` while a
 * popup is open: the full-page capture resizes the view, which can hide floating dropdowns.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(join(ARTIFACTS, dirname(name)), { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: options.fullPage ?? true });
}
