import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, type Language, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, ROOT, signedInPage } from '../src/console';
import { type FakeServer, startFake } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

const CAROL = { username: 'carol', password: 'carol-password' };
type State = 'queued' | 'in_progress' | 'completed' | 'failed';

let server: RunningServer;
let chromium: TestBrowser;
let upstream: FakeServer;
const contexts: BrowserContext[] = [];
/** The fake's jobs: OpenAI's video objects, moved by the test. */
const jobs = new Map<
  string,
  { id: string; model: string; status: State; progress: number; seconds: string; size: string }
>();

beforeAll(async () => {
  upstream = await startFake((req, body, res) => {
    const answer = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'POST' && req.url === '/v1/videos') {
      const fields = JSON.parse(body) as { model: string; seconds: string; size: string };
      const job = { id: `video_up_${jobs.size + 1}`, status: 'queued' as State, progress: 0, ...fields };
      jobs.set(job.id, job);
      answer(200, { object: 'video', ...job });
      return;
    }
    const job = jobs.get((req.url ?? '').replace('/v1/videos/', ''));
    if (!job) answer(404, { error: { message: 'not found', type: 'invalid_request_error' } });
    else
      answer(200, {
        object: 'video',
        ...job,
        error: job.status === 'failed' ? { message: 'blocked' } : null,
      });
  });
  server = await startServer({ VIDEO_POLL_INTERVAL: '3600' });
  chromium = await launchBrowser();
  const root = new AdminApi(server.baseUrl);
  await root.login();
  await root.call('POST', '/api/channel/', {
    type: 1,
    name: 'sora',
    key: 'sk-e2e-video-channel',
    base_url: upstream.url,
    models: 'sora-2,sora-2-pro',
    group: 'default',
  });
  await root.createUser(CAROL.username, CAROL.password, 'Carol');
  const carol = new AdminApi(server.baseUrl);
  await carol.login(CAROL.username, CAROL.password);
  const self = await carol.call<{ id: number }>('GET', '/api/user/self');
  await root.call('POST', '/api/topup', { user_id: self.id, quota: 50_000_000 });
  const token = await carol.call<{ key: string }>('POST', '/api/token/', {
    name: 'studio',
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  });
  const make = async (body: Record<string, string>) => {
    const response = await fetch(`${server.baseUrl}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await response.json()) as { id: string }).id;
  };
  const done = await make({ model: 'sora-2', prompt: 'a fox', seconds: '8', size: '1280x720' });
  const failed = await make({ model: 'sora-2-pro', prompt: 'a storm', seconds: '4', size: '1792x1024' });
  const running = await make({ model: 'sora-2', prompt: 'waves', seconds: '12' });
  await make({ model: 'sora-2', prompt: 'rain', seconds: '4' });
  Object.assign(jobs.get('video_up_1')!, { status: 'completed', progress: 100 });
  Object.assign(jobs.get('video_up_2')!, { status: 'failed', progress: 0 });
  Object.assign(jobs.get('video_up_3')!, { status: 'in_progress', progress: 45 });
  for (const id of [done, failed, running]) {
    await fetch(`${server.baseUrl}/v1/videos/${id}`, {
      headers: { authorization: `Bearer sk-${token.key}` },
    });
  }
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await chromium?.close();
  await server?.stop();
  await upstream?.close();
});

async function videosPage(
  account: { username: string; password: string },
  language: Language,
  viewport: { width: number; height: number },
): Promise<Page> {
  const page = await signedInPage(
    chromium.browser,
    { baseUrl: server.baseUrl, language, viewport },
    account,
    contexts,
  );
  await page.goto('/video');
  await page.locator('[data-video-id]').first().waitFor();
  return page;
}

describe('the video jobs page', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`shows a user their jobs with state, progress and quota on a desktop (${language})`, async () => {
      const page = await videosPage(CAROL, language, DESKTOP);
      const table = page.locator('[data-testid="video-table"]');
      const text = (await table.textContent()) ?? '';
      expect(await page.locator('[data-video-id]').count()).toBe(4);
      expect(text).toContain('sora-2-pro');
      expect(text).toContain('1792x1024');
      expect(text).toContain(language === 'en' ? 'Completed' : '已完成');
      expect(text).toContain(language === 'en' ? 'Failed' : '失败');
      expect(text).toContain(language === 'en' ? 'In progress' : '生成中');
      expect(text).toContain('45%');
      expect(text).not.toContain(CAROL.username);
      await screenshot(page, `videos/${language}-1280-user`);
    });

    it(`shows cards on a phone, nothing wider than the screen (${language})`, async () => {
      const page = await videosPage(CAROL, language, PHONE);
      await page.locator('[data-testid="video-cards"]').waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, `videos/${language}-375-user`);
    });

    it(`shows administrators every job with its user (${language})`, async () => {
      const page = await videosPage(ROOT, language, DESKTOP);
      const text = (await page.locator('[data-testid="video-table"]').textContent()) ?? '';
      expect(text).toContain(CAROL.username);
      await screenshot(page, `videos/${language}-1280-admin`);
      const phone = await videosPage(ROOT, language, PHONE);
      expect((await phone.locator('[data-testid="video-cards"]').textContent()) ?? '').toContain(
        CAROL.username,
      );
      await screenshot(phone, `videos/${language}-375-admin`);
    });
  }
});
