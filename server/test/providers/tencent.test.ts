import { describe, expect, it } from 'vitest';
import { HttpFake } from '../fakes/http-fake';
import { hunyuanHandler } from '../fakes/tencent';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const TENCENT = 23;
const MODEL = 'hunyuan-standard';
const SECRETS = { secretId: 'AKIDfakeSecretId', secretKey: 'fake-secret-key' };

describe('Tencent Hunyuan channels (Cloud API 3.0, TC3-HMAC-SHA256)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(hunyuanHandler(SECRETS)).start(),
    channels: [
      {
        name: 'hunyuan',
        type: TENCENT,
        key: `1250000000|${SECRETS.secretId}|${SECRETS.secretKey}`,
        models: `${MODEL},hunyuan-embedding`,
        config: JSON.stringify({ region: 'ap-guangzhou' }),
      },
    ],
    customer: 'hunyuan-user',
  });

  it('signs the call, converts the body and bills the reported usage', async () => {
    rig.fake.use(
      hunyuanHandler({ ...SECRETS, reply: 'Ni hao', usage: { PromptTokens: 40, CompletionTokens: 6 } }),
    );
    let content: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'You are terse' },
          { role: 'user', content: 'Hello' },
        ],
        temperature: 0.5,
        top_p: 0.8,
      });
      content = answer.choices[0]?.message.content;
      expect(answer.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 6 });
    });
    expect(content).toBe('Ni hao');
    const upstream = rig.fake.last();
    expect(upstream.headers).toMatchObject({
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': '2023-09-01',
      'x-tc-region': 'ap-guangzhou',
      'content-type': 'application/json',
    });
    expect(upstream.json).toEqual({
      Model: MODEL,
      Messages: [
        { Role: 'system', Content: 'You are terse' },
        { Role: 'user', Content: 'Hello' },
      ],
      Stream: false,
      TopP: 0.8,
      Temperature: 0.5,
    });
    expect(quota).toBe(expectedQuota(MODEL, TENCENT, { prompt: 40, completion: 6 }));
    expect(log).toMatchObject({ prompt_tokens: 40, completion_tokens: 6, channel_id: rig.channelId });
  });

  it('streams in order and bills from the last running total, not the sum', async () => {
    rig.fake.use(
      hunyuanHandler({
        ...SECRETS,
        reply: 'alpha beta gamma',
        usage: { PromptTokens: 12, CompletionTokens: 5 },
      }),
    );
    const pieces: string[] = [];
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(rig.fake.last().json).toMatchObject({ Stream: true });
    expect(pieces.filter(Boolean)).toEqual(['alpha', ' beta', ' gamma']);
    expect(finish).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 5 });
    expect(quota).toBe(expectedQuota(MODEL, TENCENT, { prompt: 12, completion: 5 }));
  });

  it('relays embeddings with GetEmbedding', async () => {
    rig.fake.use(hunyuanHandler(SECRETS));
    let vectors: number[][] = [];
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({
        model: 'hunyuan-embedding',
        input: ['x', 'y'],
      });
      vectors = answer.data.map((item) => Array.from(item.embedding));
    });
    expect(rig.fake.last().headers['x-tc-action']).toBe('GetEmbedding');
    expect(rig.fake.last().json).toEqual({ InputList: ['x', 'y'] });
    expect(vectors).toEqual([
      [0, 0.25],
      [1, 0.25],
    ]);
    expect(quota).toBe(expectedQuota('hunyuan-embedding', TENCENT, { prompt: 10, completion: 0 }));
  });

  it('maps Tencent error codes to statuses and refunds, streaming or not', async () => {
    const cases: Array<[code: string, status: number]> = [
      ['RequestLimitExceeded', 429],
      ['InvalidParameterValue.Model', 400],
      ['InternalError', 500],
    ];
    for (const [errorCode, status] of cases) {
      rig.fake.use(hunyuanHandler({ ...SECRETS, errorCode }));
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error).toMatchObject({ status });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
  });

  it('a wrong secret fails the signature check: 401, refunded, channel disabled', async () => {
    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    rig.fake.use(hunyuanHandler({ ...SECRETS, secretKey: 'the-real-key-is-different' }));
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 401 });
    expect(String((error as Error).message)).toContain('AuthFailure.SignatureFailure');
    expect(refunded).toBe(true);
    const channel = await rig.t.db.kysely
      .selectFrom('channels')
      .select('status')
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(channel.status).toBe(3);
  });
});
