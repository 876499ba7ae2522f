import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/relay/pipeline/tokenizer';
import { cloudflareHandler } from '../fakes/cloudflare';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const CLOUDFLARE = 37;
const TOKEN = 'cf-fake-token-123';
const ACCOUNT = 'd8d7c61dbc334c32d3ced580e4bf42b4';
const MODEL = '@cf/meta/llama-3.1-8b-instruct';
const config = JSON.stringify({ user_id: ACCOUNT });
const counter = createTokenCounter(() => false);

describe('Cloudflare Workers AI channels (OpenAI-compatible endpoints under the account)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(cloudflareHandler({ token: TOKEN, account: ACCOUNT })).start(),
    channels: [
      { type: CLOUDFLARE, key: TOKEN, models: `${MODEL},@cf/baai/bge-base-en-v1.5`, config },
      { type: CLOUDFLARE, key: 'cf-wrong-token', models: '@cf/microsoft/phi-2', config },
    ],
    customer: 'cf-user',
  });

  it('calls chat completions under the account id and bills the reported usage', async () => {
    rig.fake.use(
      cloudflareHandler({
        token: TOKEN,
        account: ACCOUNT,
        reply: 'Hi',
        usage: { prompt_tokens: 9, completion_tokens: 2 },
      }),
    );
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'hello' }],
      });
    });
    const upstream = rig.fake.last();
    expect(upstream.url).toBe(`/client/v4/accounts/${ACCOUNT}/ai/v1/chat/completions`);
    expect(upstream.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(upstream.json).toMatchObject({ model: MODEL, messages: [{ role: 'user', content: 'hello' }] });
    expect(answer).toMatchObject({ choices: [{ message: { content: 'Hi' } }] });
    expect(quota).toBe(expectedQuota(MODEL, CLOUDFLARE, { prompt: 9, completion: 2 }));
  });

  it('streams chat and relays embeddings', async () => {
    rig.fake.use(
      cloudflareHandler({
        token: TOKEN,
        account: ACCOUNT,
        reply: 'a b c',
        usage: { prompt_tokens: 5, completion_tokens: 3 },
      }),
    );
    let text = '';
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'abc' }],
        stream: true,
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    });
    expect(text).toBe('a b c');
    // No usage chunk was asked for (Workers AI may not send one): the gateway counts both sides.
    const usage = {
      prompt: counter.messages([{ role: 'user', content: 'abc' }], MODEL),
      completion: counter.text('a b c', MODEL),
    };
    expect(quota).toBe(expectedQuota(MODEL, CLOUDFLARE, usage));
    const embedded = await rig.customer.openai.embeddings.create({
      model: '@cf/baai/bge-base-en-v1.5',
      input: 'x',
    });
    expect(rig.fake.last().url).toBe(`/client/v4/accounts/${ACCOUNT}/ai/v1/embeddings`);
    expect(embedded.data[0]?.embedding).toHaveLength(3);
  });

  it('passes the channel test', async () => {
    rig.fake.use(cloudflareHandler({ token: TOKEN, account: ACCOUNT, reply: 'pong' }));
    const response = await rig.root.get<{ success: boolean; message: string }>(
      `/api/channel/test/${rig.channelId}`,
    );
    expect(response.body).toMatchObject({ success: true, message: 'pong' });
  });

  it("passes Cloudflare's refusal on as a 401 in OpenAI's shape, and refunds", async () => {
    rig.fake.use(cloudflareHandler({ token: TOKEN, account: ACCOUNT }));
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: '@cf/microsoft/phi-2',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({
      status: 401,
      error: { message: expect.stringContaining('Authentication error'), code: 10000 },
    });
    expect(String((error as Error).message)).not.toContain('cf-wrong-token');
    expect(refunded).toBe(true);
  });
});
