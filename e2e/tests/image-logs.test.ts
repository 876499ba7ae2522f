import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE, screenshot, type TestBrowser } from '../src/browser';
import { AdminApi, ROOT, signedInContext } from '../src/console';
import { type FakeServer, startFake } from '../src/fakes';
import { type RunningServer, startServer } from '../src/server';

let server: RunningServer;
let upstream: FakeServer;
let chromium: TestBrowser;

/** OpenAI's images edits and variations: JSON pictures back, with usage for gpt-image-1. */
const startFakeImages = () =>
  startFake((req, body, res) => {
    const gptImage = body.includes('gpt-image-1');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        created: 1,
        data: [{ url: `https://images.example.com${req.url ?? ''}.png` }],
        ...(gptImage
          ? {
              usage: {
                input_tokens: 343,
                input_tokens_details: { text_tokens: 20, image_tokens: 323 },
                output_tokens: 4160,
                total_tokens: 4503,
              },
            }
          : {}),
      }),
    );
  });

/** A multipart call through the gateway, as the openai SDK makes it. */
async function upload(key: string, path: string, fields: Record<string, string>): Promise<void> {
  const form = new FormData();
  form.append('image', new Blob([Buffer.from('PNG picture bytes')], { type: 'image/png' }), 'in.png');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}` },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

beforeAll(async () => {
  server = await startServer();
  upstream = await startFakeImages();
  chromium = await launchBrowser();
  const admin = new AdminApi(server.baseUrl);
  await admin.login();
  await admin.call('POST', '/api/channel/', {
    type: 1,
    name: 'pictures',
    key: 'sk-upstream',
    base_url: upstream.url,
    models: 'dall-e-2,gpt-image-1',
    group: 'default',
  });
  await admin.call('POST', '/api/token/', { name: 'painter', remain_quota: 0, unlimited_quota: true });
  const tokens = await admin.call<Array<{ name: string; key: string }>>(
    'GET',
    '/api/token/search?keyword=painter',
  );
  const key = tokens.find((token) => token.name === 'painter')?.key ?? '';
  await upload(key, '/v1/images/edits', { model: 'dall-e-2', prompt: 'a hat', n: '2', size: '512x512' });
  await upload(key, '/v1/images/variations', { size: '256x256' });
  await upload(key, '/v1/images/edits', { model: 'gpt-image-1', prompt: 'a room', quality: 'high' });
});

afterAll(async () => {
  await chromium?.close();
  await upstream?.close();
  await server?.stop();
});

const WORDS = {
  en: {
    edit: 'Model ratio 10.00 × group ratio 1.00 · pictures 2, size 512x512',
    variation: 'pictures 1, size 256x256',
    gptImage: 'image input 323 tokens at ratio 2.00',
  },
  zh: {
    edit: '模型倍率 10.00 × 分组倍率 1.00 · 图片 2 张，尺寸 512x512',
    variation: '图片 1 张，尺寸 256x256',
    gptImage: '图片输入 323 tokens，倍率 2.00',
  },
};

describe.each(['en', 'zh'] as const)('image logs say what was billed (%s)', (language) => {
  it('pictures, their size and the image-input ratio, at 1280 and 375 px', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await signedInContext(
        chromium.browser,
        { baseUrl: server.baseUrl, language, viewport },
        ROOT,
      );
      const page = await context.newPage();
      await page.goto('/log');
      const list = page.getByTestId(viewport === DESKTOP ? 'logs-table' : 'logs-cards');
      await list.getByText(WORDS[language].edit).waitFor();
      // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered.
      const shown = await list.innerText();
      expect(shown).toContain(WORDS[language].variation);
      expect(shown).toContain(WORDS[language].gptImage);
      await screenshot(page, `details/image-logs-${language}-${viewport.width}`);
      await context.close();
    }
  });
});
