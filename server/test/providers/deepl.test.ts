import { describe, expect, it } from 'vitest';
import { deeplHandler } from '../fakes/deepl';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const DEEPL = 38;
const KEY = 'deepl-fake-key:fx';

describe('DeepL channels (translation as chat)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(deeplHandler({ key: KEY })).start(),
    channels: [
      { type: DEEPL, key: KEY, models: 'deepl-ja,deepl-zh' },
      { type: DEEPL, key: 'deepl-wrong-key:fx', models: 'deepl-en' },
    ],
    customer: 'deepl-user',
  });

  it('translates the last message into the model language and bills its characters', async () => {
    rig.fake.use(deeplHandler({ key: KEY, translation: 'おはようございます' }));
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: 'deepl-ja',
        messages: [
          { role: 'system', content: 'ignored' },
          { role: 'user', content: 'Good morning' },
        ],
      });
    });
    const upstream = rig.fake.last();
    expect(upstream.headers.authorization).toBe(`DeepL-Auth-Key ${KEY}`);
    expect(upstream.json).toEqual({ text: ['Good morning'], target_lang: 'JA' });
    expect(answer).toMatchObject({
      model: 'deepl-ja',
      choices: [{ message: { role: 'assistant', content: 'おはようございます' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 0 },
    });
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 0 });
    expect(quota).toBe(expectedQuota('deepl-ja', DEEPL, { prompt: 12, completion: 0 }));
  });

  it('answers a stream request with the translation as one chunk, then [DONE]', async () => {
    rig.fake.use(deeplHandler({ key: KEY, translation: '你好' }));
    const chunks: Array<{ content?: string | null; finish?: string | null }> = [];
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: 'deepl-zh',
        messages: [{ role: 'user', content: 'Hello' }],
        stream: true,
      });
      for await (const chunk of stream) {
        chunks.push({ content: chunk.choices[0]?.delta?.content, finish: chunk.choices[0]?.finish_reason });
      }
    });
    expect(chunks).toEqual([
      { content: '你好', finish: null },
      { content: undefined, finish: 'stop' },
    ]);
    expect(quota).toBe(expectedQuota('deepl-zh', DEEPL, { prompt: 5, completion: 0 }));
  });

  it('passes the channel test', async () => {
    rig.fake.use(deeplHandler({ key: KEY, translation: '嗨' }));
    const response = await rig.root.get<{ success: boolean; message: string }>(
      `/api/channel/test/${rig.channelId}`,
    );
    expect(response.body).toMatchObject({ success: true, message: '嗨' });
  });

  it("maps a refused key and an exhausted quota to OpenAI's error shape, and refunds", async () => {
    rig.fake.use(deeplHandler({ key: KEY }));
    const refused = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'deepl-en',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(refused.error).toMatchObject({
      status: 403,
      error: { message: expect.stringContaining('Forbidden') },
    });
    expect(String((refused.error as Error).message)).not.toContain('deepl-wrong-key');
    expect(refused.refunded).toBe(true);
    rig.fake.use(deeplHandler({ key: KEY, quotaExceeded: true }));
    for (const stream of [false, true]) {
      const spent = await expectRefunded(rig.t, rig.customer, async () => {
        const answer = await rig.customer.openai.chat.completions.create({
          model: 'deepl-ja',
          messages: [{ role: 'user', content: 'x' }],
          stream,
        });
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
      });
      expect(spent.error).toMatchObject({
        status: 456,
        error: { message: expect.stringContaining('Quota Exceeded') },
      });
      expect(spent.refunded).toBe(true);
    }
  });
});
