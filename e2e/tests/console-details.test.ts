import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  type Language,
  launchBrowser,
  newContext,
  PHONE,
  screenshot,
  type TestBrowser,
} from '../src/browser';
import { AdminApi, ROOT, settle, signedInContext } from '../src/console';
import { type FakeOpenAi, startFakeOpenAi } from '../src/fake-openai';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
let fake: FakeOpenAi;

/** Five channels whose tests pass (each toast names its channel), and one type that has no balance. */
const TESTED = ['probe-1', 'probe-2', 'probe-3', 'probe-4', 'probe-5'];
const NO_BALANCE = 'claude-direct';
const TOAST_LIMIT = 3;
const TAP_TARGET = 44;

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  fake = await startFakeOpenAi();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.call('POST', '/api/channel/', {
    type: 14,
    name: NO_BALANCE,
    key: 'sk-ant-none',
    models: 'claude-3-haiku-20240307',
    group: 'default',
  });
  for (const name of TESTED)
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name,
      key: `sk-${name}`,
      base_url: fake.url,
      models: 'gpt-3.5-turbo',
      group: 'default',
    });
  // A cheap key: 600 quota is $0.0012 at the default 500,000 quota a dollar.
  await admin.call('POST', '/api/token/', { name: 'cheap-key', remain_quota: 600 });
  await admin.setOptions({ Notice: 'Maintenance tonight' });
});

afterAll(async () => {
  await chromium?.close();
  await fake?.close();
  await server?.stop();
});

async function open(
  language: Language,
  viewport: typeof DESKTOP,
  signedIn = true,
): Promise<[BrowserContext, Page]> {
  const options = { baseUrl: server.baseUrl, language, viewport };
  const context = signedIn
    ? await signedInContext(chromium.browser, options, ROOT)
    : await newContext(chromium.browser, options);
  return [context, await context.newPage()];
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Click Test on every probe channel, the fake upstream answering all five tests at once however slowly
 * the clicks land, and follow the toasts until each probe's has been shown (two wait their turn): the
 * most shown at once and every place one stood.
 */
async function testAllProbes(
  page: Page,
  row: (name: string) => Locator,
  test: string,
): Promise<{ most: number; boxes: Box[] }> {
  await page.evaluate(() => {
    const seen = { most: 0, boxes: [] as Array<{ x: number; y: number; width: number; height: number }> };
    Object.assign(window, { __stack: seen });
    const look = () => {
      // A leaving toast (its state faded to 0 at once, then removed) no longer counts.
      const toasts = [...document.querySelectorAll<HTMLElement>('.mantine-Notification-root')].filter(
        (toast) => toast.style.getPropertyValue('--notifications-state-opacity') !== '0',
      );
      seen.most = Math.max(seen.most, toasts.length);
      for (const toast of toasts) {
        const { x, y, width, height } = toast.getBoundingClientRect();
        seen.boxes.push({ x, y, width, height });
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  const answered = fake.holdChatsUntil(TESTED.length);
  for (const name of TESTED) await row(name).getByRole('button', { name: test, exact: true }).click();
  await answered;
  await page.waitForFunction(
    (names) =>
      names.every((name) =>
        ((window as unknown as { __toasts: string[] }).__toasts ?? []).some((text) =>
          text.includes(`${name} `),
        ),
      ),
    TESTED,
    { timeout: 20_000 },
  );
  return page.evaluate(() => (window as unknown as { __stack: { most: number; boxes: Box[] } }).__stack);
}

describe.each(['en', 'zh'] as const)('toasts (%s)', (language) => {
  const test = language === 'en' ? 'Test' : '测试';
  const updateBalance = language === 'en' ? 'Update balance' : '更新余额';

  it('stack at most three at 1280 px, left of the Actions column, and say the same thing once', async () => {
    const [context, page] = await open(language, DESKTOP);
    const row = (name: string) => page.locator(`[data-testid="channels-table"] tr[data-channel="${name}"]`);
    await page.goto('/channel');
    await row('probe-1').waitFor();

    // The same balance read twice while its toast is up: one toast.
    const balance = row('probe-1').getByRole('button', { name: updateBalance });
    for (let i = 0; i < 2; i += 1) {
      const read = page.waitForResponse((r) => r.url().includes('/api/channel/update_balance/'));
      await balance.click();
      await read;
      // Done once the button stops loading: its toast has been asked for by then.
      await page.waitForFunction(
        (button) => button !== null && !button.hasAttribute('data-loading'),
        await balance.elementHandle(),
      );
    }
    await row('probe-1').getByText('$75.00').waitFor();
    expect(
      await page
        .locator('.mantine-Notification-root')
        .evaluateAll(
          (toasts) =>
            toasts.filter(
              (toast) =>
                (toast as HTMLElement).style.getPropertyValue('--notifications-state-opacity') !== '0',
            ).length,
        ),
    ).toBe(1);

    const stack = await testAllProbes(page, row, test);
    expect(stack.most).toBe(TOAST_LIMIT);
    const actions = await boxOf(page.locator('[data-testid="channels-table"] th').last());
    for (const box of stack.boxes) expect(box.x + box.width).toBeLessThan(actions.x);
    await settle(page);
    await screenshot(page, `details/toasts-${language}-1280`, { fullPage: false });
    await context.close();
  });

  it('cover neither the title nor its buttons at 375 px', async () => {
    const [context, page] = await open(language, PHONE);
    const card = (name: string) => page.locator(`[data-testid="channels-cards"] [data-channel="${name}"]`);
    await page.goto('/channel');
    await card('probe-1').waitFor();
    const header = [page.locator('main h2').first(), ...(await page.locator('main h2 + div button').all())];
    expect(header.length).toBeGreaterThan(1);
    const boxes = await Promise.all(header.map(boxOf));
    const stack = await testAllProbes(page, card, test);
    expect(stack.most).toBeLessThanOrEqual(TOAST_LIMIT);
    for (const toast of stack.boxes) for (const part of boxes) expect(overlaps(toast, part)).toBe(false);
    await settle(page);
    await screenshot(page, `details/toasts-${language}-375`, { fullPage: false });
    await context.close();
  });
});

describe.each(['en', 'zh'] as const)('at 375 px (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  const words = {
    en: {
      close: 'Close',
      closeNotice: 'Close the notice',
      update: 'Update balance',
      more: 'More things to copy',
      none: 'Not supported',
    },
    zh: { close: '关闭', closeNotice: '关闭公告', update: '更新余额', more: '复制其他内容', none: '不支持' },
  }[language];
  beforeAll(async () => {
    [context, page] = await open(language, PHONE);
  });
  afterAll(() => context?.close());

  it('small controls and the buttons of list cards are tap targets of 44 × 44 px at least; a type without balance offers no refresh', async () => {
    const expectTapTarget = async (target: Locator) => {
      const box = await boxOf(target);
      expect(
        Math.min(box.width, box.height),
        (await target.getAttribute('aria-label')) ?? (await target.textContent()) ?? undefined,
      ).toBeGreaterThanOrEqual(TAP_TARGET);
    };
    await page.goto('/channel');
    const card = (name: string) => page.locator(`[data-testid="channels-cards"] [data-channel="${name}"]`);
    await card('probe-1').waitFor();
    await expectTapTarget(page.getByTestId('channels-note').getByRole('button', { name: words.close }));
    await expectTapTarget(page.getByTestId('site-notice').getByRole('button', { name: words.closeNotice }));
    await expectTapTarget(card('probe-1').getByRole('button', { name: words.update }));
    expect(await card(NO_BALANCE).getByTestId('balance').textContent()).toBe(words.none);
    expect(await card(NO_BALANCE).getByRole('button', { name: words.update }).count()).toBe(0);
    await screenshot(page, `details/channels-${language}-375`);

    // Every button of a card, the row of a list on phones.
    for (const button of await card('probe-1').getByRole('button').all()) await expectTapTarget(button);

    await page.goto('/token');
    const key = page.locator('[data-testid="tokens-cards"] [data-token="cheap-key"]');
    await expectTapTarget(key.getByRole('button', { name: words.more }));
    for (const button of await key.getByRole('button').all()) await expectTapTarget(button);

    await page.goto('/user');
    const member = page.locator('[data-testid="users-cards"] [data-username="root"]');
    await member.waitFor();
    for (const button of await member.getByRole('button').all()) await expectTapTarget(button);
  });
});

describe.each(['en', 'zh'] as const)('texts at 1280 and 375 px (%s)', (language) => {
  it('a small spend shows its digits; the token metric reads "Token"; the home sentence ends with its own stop', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const width = viewport.width;
      const [context, page] = await open(language, viewport);
      await page.goto('/token');
      await page.locator('[data-token="cheap-key"]').first().waitFor();
      expect(await page.locator('[data-token="cheap-key"]').first().textContent()).toContain('$0.0012');
      await screenshot(page, `details/tokens-${language}-${width}`);

      await page.goto('/log');
      const dashboard = page.getByTestId('usage-dashboard');
      await dashboard.getByTestId('usage-tokens').waitFor();
      // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, after any CSS text-transform.
      const shown = await dashboard.innerText();
      expect(shown).toContain(language === 'en' ? 'Tokens' : 'Token 数');
      expect(shown).not.toContain('TOKEN');
      await screenshot(page, `details/logs-${language}-${width}`);
      await context.close();

      const [visitor, home] = await open(language, viewport, false);
      await home.goto('/');
      const prompt = home.getByTestId('sign-in-prompt');
      await prompt.waitFor();
      const sentence = (await prompt.textContent()) ?? '';
      expect(sentence.endsWith(language === 'en' ? '.' : '。'), sentence).toBe(true);
      expect(await prompt.getByRole('link').count()).toBe(2);
      await screenshot(home, `details/home-${language}-${width}`);
      await visitor.close();
    }
  });
});
