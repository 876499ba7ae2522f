import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInPage, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

interface ApiChannel {
  id: number;
  type: number;
  models: string;
}

const LABELS = {
  en: { submit: 'Submit', created: 'Channel created!' },
  zh: { submit: '提交', created: '渠道创建成功！' },
} as const;

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

async function pageFor(language: Language, viewport: { width: number; height: number }): Promise<Page> {
  return signedInPage(chromium.browser, { baseUrl: server.baseUrl, language, viewport }, ROOT, contexts);
}

async function chooseType(page: Page, label: string): Promise<void> {
  const select = page.getByTestId('channel-type');
  await select.click();
  await select.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Fills the name and key of a channel of `type` and submits it: answers the channel as stored. */
async function createThroughForm(page: Page, language: Language, type: string, name: string) {
  await page.goto('/channel/add');
  await chooseType(page, type);
  await page.locator('input[name="name"]').fill(name);
  await page.locator('input[name="key"]').fill(`${name}-key`);
  await page.getByRole('button', { name: LABELS[language].submit }).click();
  await expectToast(page, LABELS[language].created);
  await waitForPath(page, '/channel');
  const [created] = (await admin.call<ApiChannel[]>('GET', `/api/channel/search?keyword=${name}`)) ?? [];
  return created;
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

describe('rerank models in the console', () => {
  it('fills the rerank models of Voyage AI, Jina AI, Cohere and SiliconFlow when the type is chosen', async () => {
    const page = await pageFor('en', DESKTOP);
    const voyage = await createThroughForm(page, 'en', 'Voyage AI', 'voyage-e2e');
    expect(voyage?.type).toBe(1002);
    expect(voyage?.models.split(',')).toEqual(['rerank-2.5', 'rerank-2.5-lite', 'rerank-2', 'rerank-2-lite']);
    const jina = await createThroughForm(page, 'en', 'Jina AI', 'jina-e2e');
    expect(jina?.type).toBe(1001);
    expect(jina?.models.split(',')).toContain('jina-reranker-v2-base-multilingual');
    const cohere = await createThroughForm(page, 'en', 'Cohere', 'cohere-e2e');
    expect(cohere?.models.split(',')).toEqual(
      expect.arrayContaining(['rerank-v3.5', 'rerank-multilingual-v3.0']),
    );
    const siliconFlow = await createThroughForm(page, 'en', 'SiliconFlow', 'siliconflow-e2e');
    expect(siliconFlow?.models.split(',')).toContain('BAAI/bge-reranker-v2-m3');
  });

  it('shows the default rerank ratios in the model ratio setting and saves a changed one', async () => {
    const page = await pageFor('en', DESKTOP);
    await page.goto('/setting?tab=operation');
    const ratio = page.getByTestId('section-ratio').locator('textarea[name="ModelRatio"]');
    await ratio.waitFor();
    const shown = JSON.parse(await ratio.inputValue()) as Record<string, number>;
    expect(shown).toMatchObject({ 'rerank-v3.5': 1, 'rerank-2': 0.025, 'BAAI/bge-reranker-v2-m3': 0.025 });
    // The Realtime models' audio prices sit beside the other ratios.
    const audio = page.getByTestId('section-ratio').locator('textarea[name="AudioRatio"]');
    expect(JSON.parse(await audio.inputValue())).toMatchObject({ 'gpt-realtime': 8 });
    await ratio.fill(JSON.stringify({ ...shown, 'rerank-v3.5': 1.5 }));
    await page.getByTestId('section-ratio').getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Settings saved!');
    const options = await admin.call<Array<{ key: string; value: string }>>('GET', '/api/option/');
    const saved = JSON.parse(options.find((entry) => entry.key === 'ModelRatio')?.value ?? '{}');
    expect(saved['rerank-v3.5']).toBe(1.5);
  });

  for (const language of ['en', 'zh'] as const) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`lays out the form of a Voyage AI channel at ${viewport.width} px in ${language}`, async () => {
        const page = await pageFor(language, viewport);
        await page.goto('/channel/add');
        await chooseType(page, 'Voyage AI');
        await page.locator('input[name="name"]').fill('voyage');
        await page.evaluate(() => window.scrollTo(0, 0));
        await settle(page);
        await screenshot(page, `channel-rerank/voyage-${size}-${language}`);
      });
    }
  }
});
