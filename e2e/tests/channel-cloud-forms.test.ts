import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, settle, signedInPage, waitForPath } from '../src/console';
import { type RunningServer, startServer } from '../src/server';

interface ApiChannel {
  id: number;
  type: number;
  key: string;
  name: string;
  config: string;
}

/** A service-account key file's shape (the key is not a real one: the form only stores it). */
const ADC = JSON.stringify(
  {
    type: 'service_account',
    project_id: 'switchyard-demo',
    private_key_id: 'abc123',
    private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
    client_email: 'relay@switchyard-demo.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
  },
  null,
  2,
);

const LABELS = {
  en: { aws: 'AWS Bedrock', vertex: 'Google Vertex AI', submit: 'Submit', created: 'Channel created!' },
  zh: { aws: 'AWS Bedrock', vertex: 'Google Vertex AI', submit: '提交', created: '渠道创建成功！' },
} as const;

let server: RunningServer;
let chromium: TestBrowser;
let admin: AdminApi;
const contexts: BrowserContext[] = [];

const ADMIN = { username: 'cloudadmin', password: 'cloud-admin-pass' };

async function pageFor(
  language: Language,
  viewport: { width: number; height: number },
  user: { username: string; password: string } = ROOT,
): Promise<Page> {
  return signedInPage(chromium.browser, { baseUrl: server.baseUrl, language, viewport }, user, contexts);
}

/** A full-page capture from the top: the sticky header then sits above the form, not over it. */
async function capture(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await screenshot(page, name);
}

async function chooseType(page: Page, label: string): Promise<void> {
  const select = page.getByTestId('channel-type');
  await select.click();
  await select.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
}

beforeAll(async () => {
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.createAdmin(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
});

describe('the channel form of AWS Bedrock and Vertex AI', () => {
  it('creates a Bedrock channel from its region, access key and secret, without a key field', async () => {
    const page = await pageFor('en', DESKTOP);
    await page.goto('/channel/add');
    await chooseType(page, 'AWS Bedrock');
    expect(await page.locator('input[name="key"]').count()).toBe(0);
    expect(await page.locator('input[name="base_url"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await page.getByText('Please fill in this setting!').count()).toBe(3);
    // No key field, so the name alone is asked for.
    await page.getByText('Please fill in the channel name!', { exact: true }).waitFor();
    expect(await page.getByText('Please fill in the channel name and channel key!').count()).toBe(0);
    await page.locator('input[name="name"]').fill('bedrock-e2e');
    await page.locator('input[name="config.region"]').fill('us-west-2');
    await page.locator('input[name="config.ak"]').fill('AKIAE2EFAKE000000001');
    await page.locator('input[name="config.sk"]').fill('e2eSecretAccessKey0123456789');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Channel created!');
    await waitForPath(page, '/channel');
    const [created] =
      (await admin.call<ApiChannel[]>('GET', '/api/channel/search?keyword=bedrock-e2e')) ?? [];
    expect(created?.type).toBe(33);
    expect(created?.key).toBe('AKIAE2EFAKE000000001|e2eSecretAccessKey0123456789|us-west-2');
    expect(JSON.parse(created?.config ?? '{}')).toMatchObject({
      region: 'us-west-2',
      sk: 'e2eSecretAccessKey0123456789',
    });

    await page.goto(`/channel/edit/${created?.id}`);
    await page.locator('input[name="config.region"]').waitFor();
    expect(await page.locator('input[name="config.region"]').inputValue()).toBe('us-west-2');
    await capture(page, 'channel-cloud/bedrock-edit-desktop-en');
  });

  for (const language of ['en', 'zh'] as const) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`lays out both forms at ${viewport.width} px in ${language}`, async () => {
        const page = await pageFor(language, viewport);
        await page.goto('/channel/add');
        await chooseType(page, LABELS[language].aws);
        await page.locator('input[name="config.region"]').fill('us-west-2');
        await page.getByRole('button', { name: LABELS[language].submit }).click();
        await capture(page, `channel-cloud/bedrock-${size}-${language}`);

        await chooseType(page, LABELS[language].vertex);
        await page.locator('input[name="config.region"]').fill('us-east5');
        await page.locator('input[name="config.vertex_ai_project_id"]').fill('switchyard-demo');
        await page.locator('textarea[name="config.vertex_ai_adc"]').fill(ADC);
        expect(await page.locator('input[name="key"]').count()).toBe(0);
        await capture(page, `channel-cloud/vertex-${size}-${language}`);
      });
    }
  }

  it('shows an administrator the Vertex settings without the key file, and keeps it on save', async () => {
    const [id] = (
      await admin.call<{ ids: number[] }>('POST', '/api/channel/', {
        name: 'vertex-e2e',
        type: 42,
        models: 'gemini-1.5-pro-002',
        group: 'default',
        config: JSON.stringify({
          region: 'us-east5',
          vertex_ai_project_id: 'switchyard-demo',
          vertex_ai_adc: ADC,
        }),
      })
    ).ids;
    for (const language of ['en', 'zh'] as const) {
      const page = await pageFor(language, DESKTOP, ADMIN);
      await page.goto(`/channel/edit/${id}`);
      await page.locator('textarea[name="config.vertex_ai_adc"]').waitFor();
      expect(await page.locator('textarea[name="config.vertex_ai_adc"]').inputValue()).toBe('');
      expect(await page.locator('input[name="config.vertex_ai_project_id"]').inputValue()).toBe(
        'switchyard-demo',
      );
      await capture(page, `channel-cloud/vertex-edit-admin-desktop-${language}`);
      if (language === 'en') {
        await page.getByRole('button', { name: 'Submit' }).click();
        await expectToast(page, 'Channel updated!');
      }
    }
    const [saved] = await admin.call<ApiChannel[]>('GET', '/api/channel/search?keyword=vertex-e2e');
    expect(JSON.parse(saved?.config ?? '{}').vertex_ai_adc).toBe(ADC);
  });
});
