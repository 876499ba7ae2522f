import { type LogFacts, parseLogFacts } from '@switchyard/contract/log-facts';
import { describe, expect, it } from 'vitest';
import { anthropicHandler } from '../fakes/anthropic';
import { geminiHandler } from '../fakes/gemini';
import { HttpFake } from '../fakes/http-fake';
import { openAiHandler } from '../fakes/openai';
import type { TestApp } from '../harness';
import { balances, type Customer, consumeLogs } from '../relay-setup';
import { providerRig } from './provider-rig';

/**
 * Cached, cache-write and reasoning tokens priced by the default ratios, with hand-computed prices:
 * ceil(((prompt − cached − written) + cached × read + written × write + completion × completion
 * ratio) × model ratio), group ratio 1.
 */

/** What `work` charged: the user's quota and used quota, the key's, and the newest consumption log. */
async function charged(t: TestApp, customer: Customer, work: () => Promise<unknown>) {
  await t.app.services.relay.settled();
  const before = await balances(t, customer.userId, customer.token.id);
  await work();
  await t.app.services.relay.settled();
  const after = await balances(t, customer.userId, customer.token.id);
  const log = (await consumeLogs(t, customer.userId)).at(-1);
  return {
    quota: before.quota - after.quota,
    used: after.usedQuota - before.usedQuota,
    key: before.remain - after.remain,
    logQuota: Number(log?.quota),
    prompt: Number(log?.prompt_tokens),
    completion: Number(log?.completion_tokens),
    facts: parseLogFacts(log?.facts),
  };
}

/** Every figure of one call equals the hand-computed price. */
function expectPrice(result: Awaited<ReturnType<typeof charged>>, price: number) {
  expect(result).toMatchObject({ quota: price, used: price, key: price, logQuota: price });
}

const consume = (facts: Omit<Extract<LogFacts, { kind: 'consume' }>, 'kind' | 'groupRatio'>) => ({
  kind: 'consume',
  groupRatio: 1,
  ...facts,
});

describe('OpenAI cached and reasoning tokens (gpt-4o family, o1: cached input at half price)', () => {
  const KEY = 'sk-openai-cache';
  // o1: model ratio 7.5, completion ratio 4, cache-read ratio 0.5.
  const usage = {
    prompt_tokens: 2000,
    completion_tokens: 300,
    prompt_tokens_details: { cached_tokens: 1200, audio_tokens: 50 },
    completion_tokens_details: { reasoning_tokens: 100 },
  };
  const rig = providerRig({
    fake: () => new HttpFake(openAiHandler({ usage })).start(),
    channels: [{ type: 1, key: KEY, models: 'o1' }],
    customer: 'oai-cache',
  });

  it('bills a JSON answer: cached tokens at the read ratio, reasoning as completion', async () => {
    let answer: unknown;
    const result = await charged(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: 'o1',
        messages: [{ role: 'user', content: 'Think' }],
      });
    });
    // (800 + 1200 × 0.5 + 300 × 4) × 7.5 = 2600 × 7.5
    expectPrice(result, 19_500);
    expect(result).toMatchObject({ prompt: 2000, completion: 300 });
    expect(result.facts).toEqual(
      consume({
        modelRatio: 7.5,
        completionRatio: 4,
        cacheReadRatio: 0.5,
        parts: { cached: 1200, reasoning: 100, audioInput: 50 },
      }),
    );
    expect(answer).toMatchObject({ usage });
  });

  it('bills a stream by its last chunk usage, details included', async () => {
    rig.fake.use(
      openAiHandler({
        reply: 'deep thought',
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 90,
          prompt_tokens_details: { cached_tokens: 640 },
          completion_tokens_details: { reasoning_tokens: 64 },
        },
      }),
    );
    const chunks: Array<{ usage?: unknown }> = [];
    const result = await charged(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: 'o1',
        messages: [{ role: 'user', content: 'Think' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk);
    });
    // (360 + 640 × 0.5 + 90 × 4) × 7.5 = 1040 × 7.5
    expectPrice(result, 7_800);
    expect(result.facts).toEqual(
      consume({
        modelRatio: 7.5,
        completionRatio: 4,
        cacheReadRatio: 0.5,
        parts: { cached: 640, reasoning: 64 },
      }),
    );
    expect(chunks.at(-1)?.usage).toMatchObject({
      prompt_tokens_details: { cached_tokens: 640 },
      completion_tokens_details: { reasoning_tokens: 64 },
    });
  });

  it('takes an edit of CacheReadRatio at once, and refuses ratios that are not a JSON map of numbers ≥ 0', async () => {
    const saved = await rig.root.put('/api/option/', { key: 'CacheReadRatio', value: '{"o1":0.25}' });
    expect(saved.body.success).toBe(true);
    rig.fake.use(openAiHandler({ usage }));
    const result = await charged(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'o1',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    // (800 + 1200 × 0.25 + 300 × 4) × 7.5 = 2300 × 7.5
    expectPrice(result, 17_250);
    expect(result.facts).toMatchObject({ cacheReadRatio: 0.25 });

    const refusals: Array<[string, string, string]> = [
      ['CacheReadRatio', '{"o1":0.25', 'CacheReadRatio is not a valid JSON string'],
      [
        'CacheReadRatio',
        '[0.5]',
        'CacheReadRatio is not a valid JSON string: expected an object of name → number',
      ],
      [
        'CacheWriteRatio',
        '{"claude-3-5-sonnet-20241022":-1}',
        'CacheWriteRatio: the ratio of "claude-3-5-sonnet-20241022" must be a number of 0 or more',
      ],
      ['CacheWriteRatio', '{"x":"1.25"}', 'CacheWriteRatio: the ratio of "x" must be a number of 0 or more'],
    ];
    for (const [key, value, message] of refusals) {
      const refused = await rig.root.put('/api/option/', { key, value });
      expect(refused.body).toMatchObject({ success: false, message });
    }
    const options = await rig.root.get<{ data: Array<{ key: string; value: string }> }>('/api/option/');
    expect(options.body.data.find((option) => option.key === 'CacheReadRatio')?.value).toBe('{"o1":0.25}');
  });
});

describe('Anthropic cache reads and cache writes (claude: read 0.1, write 1.25)', () => {
  const KEY = 'sk-ant-cache';
  const MODEL = 'claude-3-5-sonnet-20241022';
  const usage = {
    input_tokens: 100,
    cache_read_input_tokens: 2000,
    cache_creation_input_tokens: 400,
    output_tokens: 200,
  };
  const rig = providerRig({
    fake: () => new HttpFake(anthropicHandler({ apiKey: KEY, reply: 'cached hello', usage })).start(),
    channels: [{ type: 14, key: KEY, models: MODEL }],
    customer: 'claude-cache',
  });
  // model ratio 1.5 ($3 / 1M), completion ratio 5:
  // (100 + 2000 × 0.1 + 400 × 1.25 + 200 × 5) × 1.5 = 1800 × 1.5
  const PRICE = 2_700;
  const facts = consume({
    modelRatio: 1.5,
    completionRatio: 5,
    cacheReadRatio: 0.1,
    cacheWriteRatio: 1.25,
    parts: { cached: 2000, cacheWrite: 400 },
  });

  it.each([false, true])('bills input + reads + writes once each (stream: %s)', async (stream) => {
    let answer: unknown;
    const result = await charged(rig.t, rig.customer, async () => {
      if (!stream) {
        answer = await rig.customer.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'Hello' }],
        });
        return;
      }
      const chunks = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Hello' }],
        stream: true,
      });
      for await (const chunk of chunks) if (chunk.usage) answer = chunk;
    });
    expectPrice(result, PRICE);
    expect(result).toMatchObject({ prompt: 2500, completion: 200 });
    expect(result.facts).toEqual(facts);
    expect(answer).toMatchObject({
      usage: { prompt_tokens: 2500, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 2000 } },
    });
  });
});

describe('Gemini cached content and thoughts (gemini-2.x: cached at a quarter)', () => {
  const KEY = 'AIzaSyFakeCacheKey';
  const MODEL = 'gemini-2.0-flash';
  const usage = {
    promptTokenCount: 4000,
    cachedContentTokenCount: 2000,
    candidatesTokenCount: 100,
    thoughtsTokenCount: 300,
    promptTokensDetails: [
      { modality: 'TEXT', tokenCount: 3742 },
      { modality: 'IMAGE', tokenCount: 258 },
    ],
  };
  const rig = providerRig({
    fake: () => new HttpFake(geminiHandler({ apiKey: KEY, reply: 'two words', usage })).start(),
    channels: [{ type: 24, key: KEY, models: MODEL }],
    customer: 'gem-cache',
  });
  // model ratio 0.075 ($0.15 / 1M), completion ratio 3; completion = candidates + thoughts = 400:
  // (2000 + 2000 × 0.25 + 400 × 3) × 0.075 = 3700 × 0.075 = 277.5
  const PRICE = 278;

  it.each([false, true])(
    'counts thoughts as completion and cached content once (stream: %s)',
    async (stream) => {
      let answer: unknown;
      const result = await charged(rig.t, rig.customer, async () => {
        if (!stream) {
          answer = await rig.customer.openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'Hello' }],
          });
          return;
        }
        const chunks = await rig.customer.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'Hello' }],
          stream: true,
        });
        for await (const chunk of chunks) if (chunk.usage) answer = chunk;
      });
      expectPrice(result, PRICE);
      expect(result).toMatchObject({ prompt: 4000, completion: 400 });
      expect(result.facts).toEqual(
        consume({
          modelRatio: 0.075,
          completionRatio: 3,
          cacheReadRatio: 0.25,
          parts: { cached: 2000, reasoning: 300, imageInput: 258 },
        }),
      );
      expect(answer).toMatchObject({
        usage: {
          prompt_tokens: 4000,
          completion_tokens: 400,
          total_tokens: 4400,
          prompt_tokens_details: { cached_tokens: 2000, image_tokens: 258 },
          completion_tokens_details: { reasoning_tokens: 300 },
        },
      });
    },
  );
});
