import type { BrowserContext, Page } from 'playwright-core';
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
import { AdminApi, settle, signedInPage } from '../src/console';
import { type FakeServer, startFake } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

const DAVE = { username: 'dave', password: 'dave-password' };

let server: RunningServer;
let chromium: TestBrowser;
let upstream: FakeServer;
let daveKey = '';
const contexts: BrowserContext[] = [];

/** A streamed chat answer in OpenAI's SSE format; `slow-model` drips words until the client leaves. */
function streamAnswer(body: string, res: import('node:http').ServerResponse): void {
  const ask = JSON.parse(body || '{}') as { model?: string; stream_options?: { include_usage?: boolean } };
  const model = ask.model ?? 'gpt-4o-mini';
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  if (model === 'slow-model') {
    let sent = 0;
    const timer = setInterval(() => {
      sent += 1;
      res.write(chunk({ content: `word${sent} ` }));
      if (sent >= 100) {
        clearInterval(timer);
        res.end('data: [DONE]\n\n');
      }
    }, 200);
    res.on('close', () => clearInterval(timer));
    return;
  }
  for (const piece of ['Hello', ' from', ' the **playground**']) res.write(chunk({ content: piece }));
  res.write(chunk({}, 'stop'));
  if (ask.stream_options?.include_usage)
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 } })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}

beforeAll(async () => {
  upstream = await startFake((req, body, res) => {
    if ((req.url ?? '').endsWith('/chat/completions')) return streamAnswer(body, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
  });
  server = await startServer();
  chromium = await launchBrowser();
  const root = new AdminApi(server.baseUrl);
  await root.login();
  await root.call('POST', '/api/channel/', {
    type: 1,
    name: 'fake',
    key: 'sk-e2e-upstream',
    base_url: upstream.url,
    models: 'gpt-4o-mini,claude-3-5-sonnet-20240620,dall-e-3,mystery-model,slow-model',
    group: 'default',
  });
  await root.setOptions({ PublicPricingEnabled: 'true' });
  await root.createUser(DAVE.username, DAVE.password, 'Dave');
  const dave = new AdminApi(server.baseUrl);
  await dave.login(DAVE.username, DAVE.password);
  const self = await dave.call<{ id: number }>('GET', '/api/user/self');
  await root.call('POST', '/api/topup', { user_id: self.id, quota: 50_000_000 });
  const token = await dave.call<{ key: string }>('POST', '/api/token/', {
    name: 'dave-key',
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  });
  daveKey = token.key;
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
  await upstream?.close();
});

/** Nothing wider than the phone's screen. */
async function fitsPhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  await settle(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

const words = {
  en: {
    pricing: 'Pricing',
    unlisted: 'No set price',
    send: 'Send',
    stop: 'Stop',
    stopped: 'Stopped',
    cost: 'Cost $',
  },
  zh: {
    pricing: '价格',
    unlisted: '未设价格',
    send: '发送',
    stop: '停止',
    stopped: '已停止',
    cost: '费用 $',
  },
} as const;

describe('the price list and the playground', () => {
  for (const language of ['en', 'zh'] as const satisfies Language[]) {
    it(`lists prices for visitors and users, and chats through the gateway (${language})`, async () => {
      const say = words[language];
      // A visitor finds the public price list from the sign-in page's menu.
      const visitorContext = await newContext(chromium.browser, {
        baseUrl: server.baseUrl,
        language,
        viewport: DESKTOP,
      });
      contexts.push(visitorContext);
      const visitor = await visitorContext.newPage();
      await visitor.goto('/login');
      await visitor.locator('header').getByRole('link', { name: say.pricing, exact: true }).click();
      await visitor.locator('[data-testid="price-table"] [data-model="gpt-4o-mini"]').waitFor();
      const table = (await visitor.locator('[data-testid="price-table"]').textContent()) ?? '';
      // gpt-4o-mini: $0.15 input, $0.60 output, $0.075 cached per 1M tokens at the default ratios.
      expect(table).toContain('$0.15');
      expect(table).toContain('$0.60');
      expect(table).toContain('$0.075');
      expect(table).toContain(say.unlisted);
      await settle(visitor);
      await screenshot(visitor, `pricing/${language}-1280-visitor`);
      await fitsPhone(visitor);
      await visitor.locator('[data-testid="price-cards"]').waitFor();
      await screenshot(visitor, `pricing/${language}-375-visitor`);

      // A user searches and sorts their group's prices.
      const page = await signedInPage(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport: DESKTOP },
        DAVE,
        contexts,
      );
      await page.goto('/pricing');
      await page.locator('[data-testid="price-table"] [data-model]').first().waitFor();
      await page.locator('[data-sort="input"]').click();
      expect(await page.locator('[data-model]').first().getAttribute('data-model')).toBe('mystery-model');
      await page.getByRole('textbox').first().fill('claude');
      expect(await page.locator('[data-model]').count()).toBe(1);
      await screenshot(page, `pricing/${language}-1280-user`);

      // The playground: the key is offered masked, the answer streams in and its cost comes from the log.
      await page.goto('/playground');
      await page.locator('[data-testid="playground-key"]').click();
      await page.getByRole('option', { name: /dave-key/ }).click();
      await page.getByRole('textbox', { name: language === 'en' ? 'Message' : '消息' }).fill('Say hello');
      await page.getByRole('button', { name: say.send, exact: true }).click();
      await page.locator('[data-testid="answer-text"] strong').getByText('playground').waitFor();
      const cost = page.locator('[data-testid="answer-cost"]');
      await cost.waitFor();
      expect(await cost.textContent()).toContain(say.cost);
      expect(await page.content()).not.toContain(daveKey);
      await settle(page);
      await screenshot(page, `playground/${language}-1280`);

      // Stop cuts a long answer short.
      await page.locator('[data-testid="playground-model"]').click();
      await page.getByRole('option', { name: 'slow-model' }).click();
      await page.getByRole('textbox', { name: language === 'en' ? 'Message' : '消息' }).fill('Count');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="answer-text"]').nth(1).getByText('word2', { exact: false }).waitFor();
      await page.getByRole('button', { name: say.stop, exact: true }).click();
      await page.getByText(say.stopped, { exact: true }).waitFor();
      await page.locator('[data-testid="answer-cost"]').nth(1).waitFor();
      await fitsPhone(page);
      await screenshot(page, `playground/${language}-375`);
    });
  }
});
