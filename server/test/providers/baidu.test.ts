import { describe, expect, it } from 'vitest';
import { FakeBaidu } from '../fakes/baidu';
import { HttpFake, type RecordedRequest } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const BAIDU = 15;
/** The main channel's application, one whose tokens expire quickly, and one whose secret is wrong. */
const MAIN = { apiKey: 'fakeApiKeyMain', secretKey: 'fakeSecretMain' };
const SHORT = { apiKey: 'fakeApiKeyShort', secretKey: 'fakeSecretShort' };
const DEAD = { apiKey: 'fakeApiKeyDead', secretKey: 'fakeSecretDead' };
const WORKSHOP = '/rpc/2.0/ai_custom/v1/wenxinworkshop';

const pathOf = (request: RecordedRequest) => request.url.split('?')[0];
const tokenOf = (request: RecordedRequest) =>
  new URL(request.url, 'http://x').searchParams.get('access_token');

describe('Baidu Wenxin channels (access token exchange, ERNIE chat and embeddings)', () => {
  const baidu = new FakeBaidu({
    clients: [MAIN, SHORT, { apiKey: DEAD.apiKey, secretKey: 'the-real-secret-is-different' }],
  });
  const rig = providerRig({
    fake: () => new HttpFake(baidu.handler).start(),
    channels: [
      {
        name: 'wenxin',
        type: BAIDU,
        key: `${MAIN.apiKey}|${MAIN.secretKey}`,
        models: 'ERNIE-4.0-8K,ERNIE-Speed-8K,ERNIE-4.0-Turbo-8K,Embedding-V1,bge-large-zh',
      },
      {
        name: 'wenxin-short',
        type: BAIDU,
        key: `${SHORT.apiKey}|${SHORT.secretKey}`,
        models: 'ERNIE-Tiny-8K',
      },
      {
        name: 'wenxin-dead',
        type: BAIDU,
        key: `${DEAD.apiKey}|${DEAD.secretKey}`,
        models: 'ERNIE-Lite-8K-0308',
      },
    ],
    customer: 'wenxin-user',
  });
  const channelStatus = async (id: number) =>
    (
      await rig.t.db.kysely
        .selectFrom('channels')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  /** Calls to the chat and embeddings services (not the token endpoint). */
  const serviceCalls = () => rig.fake.requests.filter((request) => request.url.startsWith(WORKSHOP));

  it('concurrent first calls share one token exchange', async () => {
    baidu.configure({ tokenDelayMs: 300 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        rig.customer.openai.chat.completions.create({
          model: 'ERNIE-4.0-8K',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      ),
    );
    baidu.configure({ tokenDelayMs: 0 });
    expect(answers.map((answer) => answer.choices[0]?.message.content)).toEqual(
      Array(5).fill('Hello from the fake ERNIE'),
    );
    expect(baidu.exchanges(MAIN.apiKey)).toBe(1);
    const tokens = new Set(serviceCalls().map(tokenOf));
    expect(tokens.size).toBe(1);
    expect(baidu.tokens.has([...tokens][0]!)).toBe(true);
  });

  it('converts the request (system → system field), answers chat.completion and bills the reported usage', async () => {
    baidu.configure({ reply: 'Ni hao', usage: { prompt_tokens: 40, completion_tokens: 6 } });
    let content: string | null | undefined;
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: 'ERNIE-4.0-8K',
        messages: [
          { role: 'system', content: 'You are terse' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi' },
          { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
        ],
        temperature: 1.5,
        top_p: 0.8,
        max_tokens: 100,
        stop: 'END',
        user: 'u-42',
      });
      content = answer.choices[0]?.message.content;
      finish = answer.choices[0]?.finish_reason;
      expect(answer.object).toBe('chat.completion');
      expect(answer.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 });
    });
    expect(content).toBe('Ni hao');
    expect(finish).toBe('stop');
    const upstream = rig.fake.last();
    expect(pathOf(upstream)).toBe(`${WORKSHOP}/chat/completions_pro`);
    expect(upstream.headers['content-type']).toBe('application/json');
    expect(upstream.json).toEqual({
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi' },
        { role: 'user', content: 'How are you?' },
      ],
      system: 'You are terse',
      temperature: 1,
      top_p: 0.8,
      max_output_tokens: 100,
      stop: ['END'],
      user_id: 'u-42',
    });
    expect(quota).toBe(expectedQuota('ERNIE-4.0-8K', BAIDU, { prompt: 40, completion: 6 }));
    expect(log).toMatchObject({
      model_name: 'ERNIE-4.0-8K',
      prompt_tokens: 40,
      completion_tokens: 6,
      channel_id: rig.channelId,
    });
  });

  it('streams sentences in order and bills the final usage, not a sum of the running counts', async () => {
    baidu.configure({ reply: 'alpha beta gamma', usage: { prompt_tokens: 12, completion_tokens: 5 } });
    const pieces: string[] = [];
    let finish: string | null | undefined;
    let usage: unknown;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: 'ERNIE-Speed-8K',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) {
        expect(chunk.object).toBe('chat.completion.chunk');
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
    });
    expect(pathOf(rig.fake.last())).toBe(`${WORKSHOP}/chat/ernie_speed`);
    expect(rig.fake.last().json).toMatchObject({ stream: true });
    expect(pieces.filter(Boolean)).toEqual(['alpha', ' beta', ' gamma']);
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5 });
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, is_stream: expect.anything() });
    expect(quota).toBe(expectedQuota('ERNIE-Speed-8K', BAIDU, { prompt: 12, completion: 5 }));
  });

  it('sends a model missing from the table to its lower-cased name', async () => {
    baidu.configure({ reply: 'turbo', usage: { prompt_tokens: 3, completion_tokens: 1 } });
    await rig.customer.openai.chat.completions.create({
      model: 'ERNIE-4.0-Turbo-8K',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(pathOf(rig.fake.last())).toBe(`${WORKSHOP}/chat/ernie-4.0-turbo-8k`);
  });

  it('relays embeddings to the embeddings service, in input order, billed by Baidu’s count', async () => {
    let vectors: number[][] = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({
        model: 'Embedding-V1',
        input: ['x', 'y'],
      });
      vectors = answer.data.map((item) => Array.from(item.embedding));
      expect(answer.usage).toMatchObject({ prompt_tokens: 6, total_tokens: 6 });
    });
    expect(pathOf(rig.fake.last())).toBe(`${WORKSHOP}/embeddings/embedding-v1`);
    expect(rig.fake.last().json).toEqual({ input: ['x', 'y'] });
    expect(vectors).toEqual([
      [0, 0.5],
      [1, 0.5],
    ]);
    expect(quota).toBe(expectedQuota('Embedding-V1', BAIDU, { prompt: 6, completion: 0 }));
    expect(log).toMatchObject({ prompt_tokens: 6, completion_tokens: 0 });

    const single = await rig.customer.openai.embeddings.create({
      model: 'bge-large-zh',
      input: 'one',
      encoding_format: 'float',
    });
    expect(pathOf(rig.fake.last())).toBe(`${WORKSHOP}/embeddings/bge_large_zh`);
    expect(rig.fake.last().json).toEqual({ input: ['one'] });
    expect(single.data[0]?.embedding).toEqual([0, 0.5]);
  });

  it('reused the one token for every call so far', () => {
    expect(baidu.exchanges(MAIN.apiKey)).toBe(1);
    expect(new Set(serviceCalls().map(tokenOf)).size).toBe(1);
  });

  it('exchanges the key again once its token has expired', async () => {
    baidu.configure({ expiresIn: 2, reply: 'tiny', usage: { prompt_tokens: 2, completion_tokens: 1 } });
    const ask = () =>
      rig.customer.openai.chat.completions.create({
        model: 'ERNIE-Tiny-8K',
        messages: [{ role: 'user', content: 'x' }],
      });
    await ask();
    const first = tokenOf(rig.fake.last());
    await ask();
    expect(tokenOf(rig.fake.last())).toBe(first);
    expect(baidu.exchanges(SHORT.apiKey)).toBe(1);
    // The fake refuses expired tokens (111), so this call only passes with a new one. Time is under
    // test: the token's 2 s lifetime (Baidu's expires_in counts whole seconds) must pass.
    await new Promise((resolve) => setTimeout(resolve, 2300));
    const answer = await ask();
    expect(answer.choices[0]?.message.content).toBe('tiny');
    expect(baidu.exchanges(SHORT.apiKey)).toBe(2);
    expect(tokenOf(rig.fake.last())).not.toBe(first);
    expect(pathOf(rig.fake.last())).toBe(`${WORKSHOP}/chat/ernie-tiny-8k`);
    baidu.configure({ expiresIn: undefined });
  });

  it('maps Baidu error codes (sent with HTTP 200) to statuses and refunds, streaming or not', async () => {
    const cases: Array<[code: number, status: number]> = [
      [18, 429],
      [336003, 400],
      [336000, 500],
      [17, 403],
    ];
    for (const [errorCode, status] of cases) {
      baidu.configure({ errorCode });
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: 'ERNIE-4.0-8K',
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error, `code ${errorCode}, stream ${stream}`).toMatchObject({ status });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
    baidu.configure({ errorCode: undefined });
    // Auto-disable is off: an account error alone leaves the channel as it was.
    expect(await channelStatus(rig.channelId)).toBe(1);
  });

  it('a token Baidu no longer accepts is dropped and the key exchanged again, without disabling the channel', async () => {
    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    const before = baidu.exchanges(MAIN.apiKey);
    baidu.revokeAll();
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'ERNIE-4.0-8K',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(String((error as Error).message)).toContain('Access token invalid or no longer valid');
    expect(refunded).toBe(true);
    expect(await channelStatus(rig.channelId)).toBe(1);

    baidu.configure({ reply: 'back again', usage: { prompt_tokens: 4, completion_tokens: 2 } });
    const answer = await rig.customer.openai.chat.completions.create({
      model: 'ERNIE-4.0-8K',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(answer.choices[0]?.message.content).toBe('back again');
    expect(baidu.exchanges(MAIN.apiKey)).toBe(before + 1);
  });

  it('a key Baidu refuses at the exchange is a dead key: 401, refunded, channel disabled', async () => {
    const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'ERNIE-Lite-8K-0308',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 401 });
    expect(String((error as Error).message)).toContain('Client authentication failed');
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
    expect(baidu.exchanges(DEAD.apiKey)).toBe(1);
    expect(serviceCalls().some((request) => request.url.includes('/chat/ernie-lite-8k'))).toBe(false);
    expect(await channelStatus(rig.channels[2]!)).toBe(3);
    expect(await channelStatus(rig.channelId)).toBe(1);
  });
});
