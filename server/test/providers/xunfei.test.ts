import { describe, expect, it } from 'vitest';
import { SparkFake } from '../fakes/xunfei';
import { consumeLogs } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const SPARK = 18;
const CREDENTIALS = { appId: 'app123', apiSecret: 'spark-secret', apiKey: 'spark-key' };
const KEY = `${CREDENTIALS.appId}|${CREDENTIALS.apiSecret}|${CREDENTIALS.apiKey}`;

describe('iFlytek Spark channels (signed WebSocket)', () => {
  const rig = providerRig({
    fake: () => new SparkFake(CREDENTIALS).start(),
    channels: [
      {
        type: SPARK,
        key: KEY,
        models: 'Spark-Max,Spark-Pro-128K,SparkDesk,SparkDesk-v3.5',
        other: 'v2.1',
      },
      {
        type: SPARK,
        key: `${CREDENTIALS.appId}|not-the-secret|${CREDENTIALS.apiKey}`,
        models: 'Spark-Lite',
      },
    ],
    customer: 'spark-user',
  });

  it('signs the URL, sends one request frame and joins the answer frames', async () => {
    rig.fake.script = { reply: 'Spark says hello', usage: { prompt_tokens: 22, completion_tokens: 7 } };
    let content: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: 'Spark-Max',
        messages: [
          { role: 'system', content: 'Be kind' },
          { role: 'user', content: 'Hi' },
        ],
        temperature: 0.4,
        max_tokens: 100,
        user: 'user-42',
      });
      content = answer.choices[0]?.message.content;
      expect(answer.usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 7 });
    });
    expect(content).toBe('Spark says hello');
    const call = rig.fake.calls.at(-1)!;
    expect(call.path).toBe('/v3.5/chat');
    expect(call.frame).toEqual({
      header: { app_id: 'app123', uid: 'user-42' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.4, max_tokens: 100 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'Be kind' },
            { role: 'user', content: 'Hi' },
          ],
        },
      },
    });
    expect(quota).toBe(expectedQuota('Spark-Max', SPARK, { prompt: 22, completion: 7 }));
    expect(log).toMatchObject({ prompt_tokens: 22, completion_tokens: 7 });
  });

  it('streams frame by frame in order and bills from the last frame', async () => {
    rig.fake.script = { reply: 'a long context answer', usage: { prompt_tokens: 9, completion_tokens: 4 } };
    const pieces: string[] = [];
    let finish: string | null | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: 'Spark-Pro-128K',
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    const call = rig.fake.calls.at(-1)!;
    expect(call.path).toBe('/chat/pro-128k');
    expect(call.frame).toMatchObject({ parameter: { chat: { domain: 'pro-128k' } } });
    expect(pieces.filter(Boolean)).toEqual(['a', ' long', ' context', ' answer']);
    expect(finish).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
    expect(quota).toBe(expectedQuota('Spark-Pro-128K', SPARK, { prompt: 9, completion: 4 }));
  });

  it('closes the socket at once when the client leaves mid-stream, and bills what was sent', async () => {
    rig.fake.script = { reply: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') };
    const abandoned = rig.fake.abandoned;
    const controller = new AbortController();
    const response = await fetch(`${rig.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${rig.customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'Spark-Max', messages: [{ role: 'user', content: 'go' }], stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let received = '';
    while ((received.match(/data: /g) ?? []).length < 3) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended after: ${received}`);
      received += new TextDecoder().decode(value);
    }
    controller.abort();
    // The fake counts a socket closed before its stream ended; the bound only allows a loaded machine.
    await expect.poll(() => rig.fake.abandoned, { timeout: 10_000 }).toBe(abandoned + 1);
    await rig.t.app.services.relay.settled();
    const log = (await consumeLogs(rig.t, rig.customer.userId)).at(-1);
    expect(log?.model_name).toBe('Spark-Max');
    expect(Boolean(log?.is_stream)).toBe(true);
    expect(log?.completion_tokens).toBeGreaterThan(0);
  });

  it('takes the version from SparkDesk-vX.Y names, else from the channel setting', async () => {
    rig.fake.script = {};
    await rig.customer.openai.chat.completions.create({
      model: 'SparkDesk-v3.5',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(rig.fake.calls.at(-1)).toMatchObject({
      path: '/v3.5/chat',
      frame: { parameter: { chat: { domain: 'generalv3.5' } } },
    });
    await rig.customer.openai.chat.completions.create({
      model: 'SparkDesk',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(rig.fake.calls.at(-1)).toMatchObject({
      path: '/v2.1/chat',
      frame: { parameter: { chat: { domain: 'generalv2' } } },
    });
  });

  it('relays a function call as a tool call', async () => {
    rig.fake.script = { reply: '', functionCall: { name: 'get_weather', arguments: '{"city":"Hefei"}' } };
    const answer = await rig.customer.openai.chat.completions.create({
      model: 'Spark-Max',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    });
    expect(rig.fake.calls.at(-1)?.frame).toMatchObject({
      payload: { functions: { text: [{ name: 'get_weather', parameters: { type: 'object' } }] } },
    });
    expect(answer.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Hefei"}' } }],
      },
    });
  });

  it('error frames become statuses and refund, streaming or not', async () => {
    const cases: Array<[code: number, status: number]> = [
      [11202, 429],
      [10013, 400],
      [10012, 500],
    ];
    for (const [errorCode, status] of cases) {
      rig.fake.script = { errorCode };
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: 'Spark-Max',
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error).toMatchObject({ status });
        // The relay words rate limits itself; other errors keep the provider's message.
        if (status !== 429)
          expect(String((error as Error).message)).toContain(`fake Spark error ${errorCode}`);
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
  });

  it('a wrong APISecret is refused at the handshake: 401 and refunded', async () => {
    rig.fake.script = {};
    const refusals = rig.fake.refusals.length;
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'Spark-Lite',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 401 });
    expect(String((error as Error).message)).toContain('HMAC signature does not match');
    expect(refunded).toBe(true);
    expect(rig.fake.refusals.length).toBe(refusals + 1);
  });
});

describe('iFlytek Spark answers are bounded by RELAY_ANSWER_LIMIT', () => {
  const rig = providerRig({
    fake: () => new SparkFake(CREDENTIALS).start(),
    channels: [{ type: SPARK, key: KEY, models: 'Spark-Max' }],
    customer: 'spark-big',
    env: { RELAY_ANSWER_LIMIT: '1' },
  });
  const ask = () =>
    rig.customer.openai.chat.completions.create({
      model: 'Spark-Max',
      messages: [{ role: 'user', content: 'x' }],
    });

  it('frames whose texts add up beyond it: a 502, the socket closed before the last, refunded', async () => {
    // 64 frames of 64 KB: 4 MB in all, each frame within the limit.
    rig.fake.script = { reply: Array.from({ length: 64 }, () => 'w'.repeat(64 * 1024)).join(' ') };
    const abandoned = rig.fake.abandoned;
    const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, ask);
    expect(error).toMatchObject({ status: 502, code: 'upstream_answer_too_large' });
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
    await expect.poll(() => rig.fake.abandoned).toBe(abandoned + 1);
  });

  it('one frame beyond it (the socket takes none larger): a 502, refunded', async () => {
    rig.fake.script = { reply: 'w'.repeat(2 * 1024 * 1024) };
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, ask);
    expect(error).toMatchObject({ status: 502 });
    expect(refunded).toBe(true);
  });

  it('an answer within it is joined whole', async () => {
    rig.fake.script = { reply: Array.from({ length: 8 }, () => 'w'.repeat(64 * 1024)).join(' ') };
    const answer = await ask();
    expect(answer.choices[0]?.message.content).toHaveLength(8 * 64 * 1024 + 7);
  });
});
