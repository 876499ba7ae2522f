import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, expectToast, ROOT, signedInContext, waitForPath, waitForToastsGone } from '../src/console';
import { type FakeOpenAi, startFakeOpenAi } from '../src/fake-openai';
import { type RunningServer, startServer } from '../src/server';

interface ApiChannel {
  id: number;
  type: number;
  key: string;
  status: number;
  name: string;
  base_url: string;
  models: string;
  group: string;
  model_mapping: string;
  priority: number;
  weight: number;
  response_time: number;
  balance: number;
}

let server: RunningServer;
let fake: FakeOpenAi;
let chromium: TestBrowser;
let context: BrowserContext;
let page: Page;
let admin: AdminApi;

const row = (id: number) => page.locator(`[data-testid="channels-table"] tr[data-id="${id}"]`);
const rowButton = (id: number, label: string) => row(id).getByRole('button', { name: label, exact: true });

/** Every channel, as root reads them (with keys), newest first. */
async function channels(): Promise<ApiChannel[]> {
  return admin.call<ApiChannel[]>('GET', '/api/channel/search?keyword=fake');
}

async function channelWithKey(key: string): Promise<ApiChannel> {
  const found = (await channels()).find((channel) => channel.key === key);
  if (!found) throw new Error(`no channel with key ${key}`);
  return found;
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startServer();
  chromium = await launchBrowser();
  admin = new AdminApi(server.baseUrl);
  await admin.login();
  context = await signedInContext(chromium.browser, { baseUrl: server.baseUrl, language: 'en' }, ROOT);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await chromium?.close();
  await server?.stop();
  await fake?.close();
});

describe('an administrator manages channels', () => {
  it('starts with an empty list and the balance note', async () => {
    await page.goto('/channel');
    await page.getByText('No channels yet').waitFor();
    await page
      .getByText('OpenAI channels no longer support reading the balance by key, so their balance shows 0.')
      .waitFor();
  });

  it('checks the form with the messages of the spec', async () => {
    await page.getByRole('link', { name: 'Add channel' }).first().click();
    await waitForPath(page, '/channel/add');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please fill in the channel name and channel key!').first().waitFor();
    await page.getByText('Please select at least one model!').waitFor();
    await page.locator('textarea[name="model_mapping"]').fill('{"gpt-4-0314": ');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Model mapping must be valid JSON!').first().waitFor();
    await page.locator('textarea[name="model_mapping"]').fill('');
  });

  it('creates two channels from two key lines in batch mode', async () => {
    await page.locator('input[name="name"]').fill('fake-openai');
    await page.getByLabel('Batch creation').check();
    await page.locator('textarea[name="key"]').fill('sk-fast\nsk-delay-1300');
    await page.getByText('One channel is created for each line: 2 now.').waitFor();
    await page.locator('input[name="base_url"]').fill(`${fake.url}/`);
    await page.locator('input[name="custom_model"]').fill('gpt-3.5-turbo');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('input[name="custom_model"]').fill('gpt-4o-mini');
    await page.locator('input[name="custom_model"]').press('Enter');
    await page.getByText('Models selected: 2').waitFor();
    await page.getByRole('button', { name: 'Use the example' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, '2 channels created!');
    await waitForPath(page, '/channel');

    const created = await channels();
    expect(created.map((channel) => channel.key).sort()).toEqual(['sk-delay-1300', 'sk-fast']);
    for (const channel of created) {
      expect(channel).toMatchObject({
        type: 1,
        name: 'fake-openai',
        status: 1,
        base_url: fake.url,
        models: 'gpt-3.5-turbo,gpt-4o-mini',
        group: 'default',
      });
      expect(JSON.parse(channel.model_mapping)).toEqual({
        'gpt-3.5-turbo-0301': 'gpt-3.5-turbo',
        'gpt-4-0314': 'gpt-4',
        'gpt-4-32k-0314': 'gpt-4-32k',
      });
      await row(channel.id).getByText('Not tested').waitFor();
    }
  });

  it('edits the priority and the weight inline', async () => {
    const fast = await channelWithKey('sk-fast');
    const priority = row(fast.id).getByLabel('Priority');
    await priority.fill('5');
    await priority.press('Enter');
    await expectToast(page, 'Operation completed successfully!');
    await expect.poll(async () => (await channelWithKey('sk-fast')).priority).toBe(5);

    const weight = row(fast.id).getByLabel('Weight');
    await weight.fill('-3');
    await weight.blur();
    await expect.poll(() => weight.inputValue()).toBe('0');
    expect((await channelWithKey('sk-fast')).weight).toBe(0);
    await weight.fill('4');
    await weight.blur();
    await expect.poll(async () => (await channelWithKey('sk-fast')).weight).toBe(4);
    await page.reload();
    expect(await row(fast.id).getByLabel('Priority').inputValue()).toBe('5');
  });

  it('tests the channels against the fake upstream and colours their time', async () => {
    const slow = await channelWithKey('sk-delay-1300');
    await rowButton(slow.id, 'Test').click();
    await expectToast(page, 'Channel fake-openai tested successfully in 1.');
    const slowTime = row(slow.id).getByTestId('response-time');
    await expect.poll(() => slowTime.getAttribute('data-color')).toBe('lime');
    expect(await slowTime.textContent()).toMatch(/^1\.\d\d s$/);

    const fast = await channelWithKey('sk-fast');
    await rowButton(fast.id, 'Test').click();
    const fastTime = row(fast.id).getByTestId('response-time');
    await expect.poll(() => fastTime.getAttribute('data-color')).toBe('green');
    expect(await fastTime.textContent()).toMatch(/^0\.\d\d s$/);
    expect(fake.chats.map((chat) => chat.key).sort()).toEqual(['sk-delay-1300', 'sk-fast']);
    expect(new Set(fake.chats.map((chat) => chat.model))).toEqual(new Set(['gpt-3.5-turbo']));
    expect((await channelWithKey('sk-delay-1300')).response_time).toBeGreaterThanOrEqual(1300);
  });

  it("shows the server's message when a test fails", async () => {
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name: 'fake-bad',
      key: 'sk-bad',
      base_url: fake.url,
      models: 'gpt-3.5-turbo',
      group: 'default',
    });
    await page.reload();
    const bad = await channelWithKey('sk-bad');
    await rowButton(bad.id, 'Test').click();
    await expectToast(page, 'Incorrect API key provided');
    // The failed try has its time recorded and shows red, with the reason on hover, after a reload too.
    const badge = row(bad.id).getByTestId('response-time');
    await expect.poll(() => badge.getAttribute('data-color')).toBe('red');
    expect(await badge.textContent()).toMatch(/^✕ \d+\.\d\d s$/);
    await page.reload();
    await badge.hover();
    await page.getByRole('tooltip').getByText('Incorrect API key provided', { exact: false }).waitFor();
    expect(await badge.getAttribute('data-color')).toBe('red');
    await screenshot(page, 'flows/channel-test-failed', { fullPage: false });
  });

  it('reads the balance from the billing endpoints', async () => {
    const fast = await channelWithKey('sk-fast');
    await row(fast.id).getByRole('button', { name: 'Update balance' }).click();
    await expectToast(page, 'Balance of channel fake-openai updated!');
    await row(fast.id).getByText('$75.00').waitFor();
  });

  it('disables one channel; the button then reads Enable', async () => {
    const fast = await channelWithKey('sk-fast');
    await rowButton(fast.id, 'Disable').click();
    await row(fast.id).getByText('Disabled', { exact: true }).waitFor();
    await rowButton(fast.id, 'Enable').waitFor();
    expect((await channelWithKey('sk-fast')).status).toBe(2);
  });

  it('deletes every disabled channel and says how many', async () => {
    const fast = await channelWithKey('sk-fast');
    await page.getByRole('button', { name: 'Delete disabled channels' }).click();
    const confirm = page.getByRole('button', { name: 'Confirm: delete every disabled channel' });
    await confirm.waitFor();
    // The popup has finished opening: no transition still running.
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== 'running'),
    );
    await screenshot(page, 'flows/channel-delete-disabled-confirm', { fullPage: false });
    await confirm.click();
    await expectToast(page, 'All disabled channels deleted: 1 in total.');
    await row(fast.id).waitFor({ state: 'detached' });
    expect((await channels()).map((channel) => channel.key).sort()).toEqual(['sk-bad', 'sk-delay-1300']);
  });

  it('edits a channel: root sees its key, an empty key keeps it', async () => {
    const slow = await channelWithKey('sk-delay-1300');
    await row(slow.id).getByRole('link', { name: 'Edit' }).click();
    await waitForPath(page, `/channel/edit/${slow.id}`);
    expect(await page.locator('input[name="key"]').inputValue()).toBe('sk-delay-1300');
    expect(await page.locator('input[name="base_url"]').inputValue()).toBe(fake.url);
    expect(await page.getByLabel('Batch creation').count()).toBe(0);
    await page.locator('input[name="name"]').fill('fake-slow');
    await page.locator('input[name="key"]').fill('');
    // The list's toasts (balance, disable, delete) may still cover Submit on a slow machine.
    await waitForToastsGone(page);
    // Waited for apart from the toast, so a failure says whether the save was sent and answered.
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/api/channel/') && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    expect((await saved).status()).toBe(200);
    await expectToast(page, 'Channel updated!');
    await waitForPath(page, '/channel');
    await row(slow.id).getByText('fake-slow').waitFor();
    expect(await channelWithKey('sk-delay-1300')).toMatchObject({ name: 'fake-slow' });
  });

  it('searches by name', async () => {
    await page.getByPlaceholder('Search channels by ID or name...').fill('fake-slow');
    await page.getByPlaceholder('Search channels by ID or name...').press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="channels-table"] tbody tr').length === 1,
    );
    await page.getByPlaceholder('Search channels by ID or name...').fill('');
    await page.getByPlaceholder('Search channels by ID or name...').press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="channels-table"] tbody tr').length === 2,
    );
  });
});

describe('screenshots', () => {
  const shots: Array<{ language: Language; viewport: { width: number; height: number } }> = [
    { language: 'en', viewport: DESKTOP },
    { language: 'en', viewport: PHONE },
    { language: 'zh', viewport: DESKTOP },
    { language: 'zh', viewport: PHONE },
  ];

  it('of the filled list and the forms at 1280 and 375 px in both languages', async () => {
    // A varied list: several types, every status, tested and untested, with balances.
    const make = (data: Record<string, unknown>) =>
      admin.call('POST', '/api/channel/', { group: 'default', models: 'gpt-3.5-turbo', ...data });
    await make({ type: 3, name: 'azure-east', key: 'sk-delay-3100', base_url: fake.url, priority: 2 });
    await make({ type: 14, name: 'claude', key: 'sk-ant', models: 'claude-3-haiku-20240307' });
    await make({ type: 5, name: 'openai-sb', key: 'sk-sb', weight: 3 });
    await make({ type: 18, name: 'spark', key: 'app|secret|key', models: 'SparkDesk-v3.5' });
    const azure = (await admin.call<ApiChannel[]>('GET', '/api/channel/search?keyword=azure'))[0];
    const sb = (await admin.call<ApiChannel[]>('GET', '/api/channel/search?keyword=openai-sb'))[0];
    if (!azure || !sb) throw new Error('set-up channels missing');
    await admin.call('GET', `/api/channel/test/${azure.id}/`);
    await admin.call('PUT', '/api/channel/', { id: sb.id, status: 2 });
    const edited = await channelWithKey('sk-delay-1300');

    for (const { language, viewport } of shots) {
      const label = `${language}-${viewport.width}`;
      const shotContext = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport },
        ROOT,
      );
      const shot = await shotContext.newPage();
      await shot.goto('/channel');
      await shot.locator(`[data-id="${edited.id}"]`).first().waitFor();
      await screenshot(shot, `flows/${label}/channel-list`);

      await shot.goto('/channel/add');
      await shot.locator('input[name="name"]').fill('pool');
      await shot.locator('input[name="batch"]').check();
      await shot.locator('textarea[name="key"]').fill('sk-first-key\nsk-second-key\nsk-third-key');
      await shot.locator('input[name="custom_model"]').fill('gpt-4o-mini');
      await shot.locator('input[name="custom_model"]').press('Enter');
      await shot.locator('textarea[name="model_mapping"]').fill('{"gpt-4o-mini-2024-07-18": "gpt-4o-mini"}');
      await shot.locator('textarea[name="model_mapping"]').blur();
      await shot.evaluate(() => window.scrollTo(0, 0));
      await screenshot(shot, `flows/${label}/channel-add-batch`);

      await shot.locator('textarea[name="model_mapping"]').fill('{"gpt-4o-mini": ');
      await shot.locator('textarea[name="model_mapping"]').blur();
      await shot.locator('button[type="submit"]').click();
      await shot.evaluate(() => window.scrollTo(0, 0));
      await screenshot(shot, `flows/${label}/channel-add-invalid-mapping`);

      await shot.goto(`/channel/edit/${azure.id}`);
      await shot.locator('input[name="name"]').waitFor();
      await screenshot(shot, `flows/${label}/channel-edit`);
      await shotContext.close();
    }
  }, 180_000);
});
