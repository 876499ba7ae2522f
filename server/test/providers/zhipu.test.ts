import { resolveModelRatio } from '@switchyard/contract/model-ratios';
import { describe, expect, it, vi } from 'vitest';
import { keyOf } from '../../src/relay/adaptors/zhipu/credentials';
import { HttpFake } from '../fakes/http-fake';
import { fakeZhipuToken, verifyZhipuToken, zhipuHandler } from '../fakes/zhipu';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const ZHIPU = 16;
const KEY = { id: 'a1b2c3d4e5f6a7b8', secret: 'Fak3SecretForZhipu' };
const V4 = 'glm-4';
const V3 = 'chatglm_turbo';
const DAY_MS = 24 * 3600 * 1000;

const decodePart = (part: string | undefined) =>
  JSON.parse(Buffer.from(part ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('Zhipu ChatGLM channels (JWT; v4 OpenAI-shaped, v3 model API)', () => {
  const { id } = KEY;
  const secrets = KEY;
  const rig = providerRig({
    fake: () => new HttpFake(zhipuHandler(secrets)).start(),
    channels: [
      {
        name: 'zhipu',
        type: ZHIPU,
        key: `${id}.${KEY.secret}`,
        models: `${V4},glm-3-turbo,${V3},chatglm_std,embedding-2,cogview-3`,
      },
    ],
    customer: 'zhipu-user',
  });

  it('v4: signs a JWT, sends the OpenAI body to /api/paas/v4 and bills the reported usage', async () => {
    rig.fake.use(
      zhipuHandler({ ...secrets, reply: 'Ni hao', usage: { prompt_tokens: 40, completion_tokens: 6 } }),
    );
    let content: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: V4,
        messages: [
          { role: 'system', content: 'You are terse' },
          { role: 'user', content: 'Hello' },
        ],
        temperature: 1.6,
        top_p: 0.8,
      });
      content = answer.choices[0]?.message.content;
      expect(answer.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 6 });
    });
    expect(content).toBe('Ni hao');
    const upstream = rig.fake.last();
    expect(upstream.url).toBe('/api/paas/v4/chat/completions');
    expect(upstream.json).toMatchObject({
      model: V4,
      messages: [
        { role: 'system', content: 'You are terse' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 1, // Zhipu takes [0, 1]
      top_p: 0.8,
    });
    // A bare token (no Bearer): header, claims in milliseconds, a day's lifetime.
    const token = String(upstream.headers.authorization);
    const [header, claims] = token.split('.');
    expect(decodePart(header)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    const payload = decodePart(claims);
    expect(payload.api_key).toBe(id);
    expect(Number(payload.exp) - Number(payload.timestamp)).toBe(DAY_MS);
    // Signed at most once a day per key (another file may have signed this one already): issued in the
    // past, and not about to lapse.
    expect(Number(payload.timestamp)).toBeLessThanOrEqual(Date.now());
    expect(Number(payload.exp) - Date.now()).toBeGreaterThan(5 * 60_000);
    expect(quota).toBe(expectedQuota(V4, ZHIPU, { prompt: 40, completion: 6 }));
    expect(log).toMatchObject({ prompt_tokens: 40, completion_tokens: 6, channel_id: rig.channelId });
  });

  it('v4: streams OpenAI chunks in order and bills the usage of the last chunk', async () => {
    rig.fake.use(
      zhipuHandler({
        ...secrets,
        reply: 'alpha beta gamma',
        usage: { prompt_tokens: 12, completion_tokens: 5 },
      }),
    );
    const pieces: string[] = [];
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: V4,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(rig.fake.last().url).toBe('/api/paas/v4/chat/completions');
    expect(rig.fake.last().json).toMatchObject({ stream: true });
    expect(pieces.filter(Boolean)).toEqual(['alpha', ' beta', ' gamma']);
    expect(finish).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 5 });
    expect(Boolean(log?.is_stream)).toBe(true);
    expect(quota).toBe(expectedQuota(V4, ZHIPU, { prompt: 12, completion: 5 }));
  });

  it('v3: chatglm_* models use model-api invoke with a prompt body; the quoted answer is decoded', async () => {
    rig.fake.use(
      zhipuHandler({
        ...secrets,
        reply: 'Line one\nline "two"',
        usage: { prompt_tokens: 30, completion_tokens: 11 },
      }),
    );
    let content: string | null | undefined;
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: V3,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: [{ type: 'text', text: 'Two lines please' }] },
        ],
        temperature: 0.3,
        top_p: 1.5,
      });
      content = answer.choices[0]?.message.content;
      finish = answer.choices[0]?.finish_reason;
      expect(answer.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 11, total_tokens: 41 });
    });
    expect(rig.fake.last().url).toBe(`/api/paas/v3/model-api/${V3}/invoke`);
    expect(rig.fake.last().json).toEqual({
      prompt: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Two lines please' },
      ],
      temperature: 0.3,
      top_p: 1,
    });
    expect(content).toBe('Line one\nline "two"');
    expect(finish).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 30, completion_tokens: 11, model_name: V3 });
    expect(quota).toBe(expectedQuota(V3, ZHIPU, { prompt: 30, completion: 11 }));
  });

  it('v3: sse-invoke add events become chunks (multi-line data kept) and finish meta is billed', async () => {
    rig.fake.use(
      zhipuHandler({
        ...secrets,
        reply: 'first second\nthird fourth',
        usage: { prompt_tokens: 8, completion_tokens: 4 },
      }),
    );
    const pieces: string[] = [];
    let finish: string | null | undefined;
    let usage: unknown;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: 'chatglm_std',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
    });
    expect(rig.fake.last().url).toBe('/api/paas/v3/model-api/chatglm_std/sse-invoke');
    expect(rig.fake.last().json).toEqual({ prompt: [{ role: 'user', content: 'go' }], incremental: true });
    expect(pieces.filter(Boolean)).toEqual(['first', ' second\nthird', ' fourth']);
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 });
    expect(log).toMatchObject({ prompt_tokens: 8, completion_tokens: 4 });
    expect(Boolean(log?.is_stream)).toBe(true);
    expect(quota).toBe(expectedQuota('chatglm_std', ZHIPU, { prompt: 8, completion: 4 }));
  });

  it('v3: an interrupted stream ends with content_filter; an error event reaches the client as an error', async () => {
    rig.fake.use(zhipuHandler({ ...secrets, reply: 'partial answer', streamEnd: 'interrupted' }));
    let finish: string | null | undefined;
    const { log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: V3,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) finish = chunk.choices[0]?.finish_reason ?? finish;
    });
    expect(finish).toBe('content_filter');
    expect(Number(log?.completion_tokens)).toBeGreaterThan(0); // counted, as no usage was reported

    rig.fake.use(zhipuHandler({ ...secrets, reply: 'partial answer', streamEnd: 'error' }));
    const failure = await (async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: V3,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const _chunk of stream) {
        // read until the error
      }
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String((failure as Error | undefined)?.message)).toContain('不安全或敏感内容');
  });

  it('caches the signed token across calls and signs a new one shortly before it expires', async () => {
    rig.fake.use(zhipuHandler(secrets));
    const ask = () =>
      rig.customer.openai.chat.completions.create({ model: V4, messages: [{ role: 'user', content: 'x' }] });
    await ask();
    const first = String(rig.fake.last().headers.authorization);
    await ask();
    await rig.customer.openai.embeddings.create({ model: 'embedding-2', input: 'x' });
    expect(String(rig.fake.last().headers.authorization)).toBe(first);
    expect(rig.fake.requests.slice(-3).map((request) => request.headers.authorization)).toEqual([
      first,
      first,
      first,
    ]);

    // A minute before the day is over, the cached token is too close to expiry and is replaced.
    const realNow = Date.now.bind(Date);
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + DAY_MS - 60_000);
    try {
      await ask();
    } finally {
      spy.mockRestore();
    }
    const renewed = String(rig.fake.last().headers.authorization);
    expect(renewed).not.toBe(first);
    const claims = decodePart(renewed.split('.')[1]);
    expect(Number(claims.exp)).toBeGreaterThan(Number(decodePart(first.split('.')[1]).exp) + DAY_MS / 2);
  });

  it('the fake refuses what Zhipu refuses: expired tokens, wrong secrets, unknown ids, no token', () => {
    const now = Date.now();
    expect(verifyZhipuToken(fakeZhipuToken(id, KEY.secret, now, DAY_MS), id, KEY.secret)).toBeUndefined();
    expect(verifyZhipuToken(fakeZhipuToken(id, KEY.secret, now - DAY_MS - 1, DAY_MS), id, KEY.secret)).toBe(
      1003,
    );
    // `exp` in seconds (a common mistake) is long past in milliseconds.
    const seconds = fakeZhipuToken(id, KEY.secret, Math.floor(now / 1000), 3600);
    expect(verifyZhipuToken(seconds, id, KEY.secret)).toBe(1003);
    expect(verifyZhipuToken(fakeZhipuToken(id, 'other', now, DAY_MS), id, KEY.secret)).toBe(1002);
    expect(verifyZhipuToken(fakeZhipuToken('someone', KEY.secret, now, DAY_MS), id, KEY.secret)).toBe(1000);
    expect(verifyZhipuToken(`Bearer ${fakeZhipuToken(id, KEY.secret, now, DAY_MS)}`, id, KEY.secret)).toBe(
      1002,
    );
    expect(verifyZhipuToken(undefined, id, KEY.secret)).toBe(1001);
    // Our own key reader refuses keys that are not id.secret.
    expect(() => keyOf('no-dot-here')).toThrow(/id\.secret/);
    expect(() => keyOf('a.b.c')).toThrow(/id\.secret/);
    expect(keyOf('abc.def')).toEqual({ id: 'abc', secret: 'def' });
  });

  it('relays embeddings through /api/paas/v4/embeddings, single and batched', async () => {
    rig.fake.use(zhipuHandler(secrets));
    let vectors: number[][] = [];
    const single = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({
        model: 'embedding-2',
        input: 'hello',
        encoding_format: 'float',
      });
      vectors = answer.data.map((item) => Array.from(item.embedding));
      expect(answer.usage).toMatchObject({ prompt_tokens: 3, total_tokens: 3 });
    });
    expect(rig.fake.last().url).toBe('/api/paas/v4/embeddings');
    expect(rig.fake.last().json).toEqual({ model: 'embedding-2', input: 'hello' });
    expect(vectors).toEqual([[0, 0.5, -1]]);
    expect(single.quota).toBe(expectedQuota('embedding-2', ZHIPU, { prompt: 3, completion: 0 }));

    // The openai SDK asks for base64 by default; the gateway encodes the floats.
    const batch = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({ model: 'embedding-2', input: ['x', 'y'] });
      vectors = answer.data.map((item) => Array.from(item.embedding));
    });
    expect(rig.fake.last().json).toEqual({ model: 'embedding-2', input: ['x', 'y'] });
    expect(vectors).toEqual([
      [0, 0.5, -1],
      [1, 0.5, -1],
    ]);
    expect(batch.quota).toBe(expectedQuota('embedding-2', ZHIPU, { prompt: 6, completion: 0 }));
  });

  it('relays cogview images through /api/paas/v4/images/generations at the unit price', async () => {
    rig.fake.use(zhipuHandler(secrets));
    let url: string | undefined;
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.images.generate({
        model: 'cogview-3',
        prompt: 'a cat',
        user: 'u1',
      });
      url = answer.data?.[0]?.url;
    });
    expect(rig.fake.last().url).toBe('/api/paas/v4/images/generations');
    expect(rig.fake.last().json).toEqual({ model: 'cogview-3', prompt: 'a cat', user_id: 'u1' });
    expect(url).toBe('https://fake.bigmodel.cn/image.png');
    expect(quota).toBe(Math.floor(resolveModelRatio('cogview-3', ZHIPU) * 1000));
  });

  it('maps Zhipu business codes to statuses (v4 and v3, streaming or not) and refunds', async () => {
    const cases: Array<[code: number, status: number, model: string]> = [
      [1261, 400, V4],
      [1302, 429, V4],
      [1113, 403, V4], // Zhipu says 429 for arrears: a dead account, not a busy one
      [500, 500, V4],
      [1261, 400, V3], // v3 answers errors with HTTP 200
      [1302, 429, V3],
    ];
    for (const [errorCode, status, model] of cases) {
      rig.fake.use(zhipuHandler({ ...secrets, errorCode }));
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model,
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error, `${model} ${errorCode} stream=${stream}`).toMatchObject({ status });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
    const channel = await rig.t.db.kysely
      .selectFrom('channels')
      .select('status')
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(channel.status).toBe(1);
  });

  it('a wrong secret fails the signature check: 401, refunded, channel disabled as a dead key', async () => {
    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    rig.fake.use(zhipuHandler({ ...secrets, secret: 'the-real-secret-is-different' }));
    const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({ model: V4, messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error).toMatchObject({ status: 401 });
    expect(String((error as Error).message)).toContain('Authorization Token非法');
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
    const channel = await rig.t.db.kysely
      .selectFrom('channels')
      .select('status')
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(channel.status).toBe(3);
  });
});
