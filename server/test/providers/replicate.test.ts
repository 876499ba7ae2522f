import { resolveModelRatio } from '@switchyard/contract/model-ratios';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/relay/pipeline/tokenizer';
import { FakeReplicate, PNG_BYTES } from '../fakes/replicate';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const REPLICATE = 46;
const TOKEN = 'r8_fakeReplicateToken123';
const LLAMA = 'meta/meta-llama-3-8b-instruct';
const FLUX = 'black-forest-labs/flux-schnell';
const counter = createTokenCounter(() => false);

describe('Replicate channels (predictions: created, then polled or streamed)', () => {
  const rig = providerRig({
    fake: () => new FakeReplicate({ token: TOKEN }).start(),
    channels: [
      { type: REPLICATE, key: TOKEN, models: `${FLUX},${LLAMA},meta/missing` },
      { type: REPLICATE, key: 'r8_wrongToken456', models: 'meta/llama-2-7b-chat' },
    ],
    customer: 'repl-user',
  });

  const requestsTo = (pattern: RegExp) => rig.fake.requests.filter((request) => pattern.test(request.url));

  it('creates a chat prediction, polls it to the end and bills the metrics', async () => {
    rig.fake.configure({
      token: TOKEN,
      pieces: ['Hello', ' there', '!'],
      pollsBeforeDone: 2,
      metrics: { input_token_count: 14, output_token_count: 3 },
    });
    const polledBefore = requestsTo(/^\/v1\/predictions\//).length;
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: LLAMA,
        messages: [
          { role: 'system', content: 'be kind' },
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: 'how are you?' },
        ],
        max_tokens: 64,
        temperature: 0.5,
      });
    });
    const [create] = requestsTo(/\/predictions$/).slice(-1);
    expect(create?.url).toBe(`/v1/models/${LLAMA}/predictions`);
    expect(create?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(create?.headers.prefer).toBe('wait=60');
    expect(create?.json).toEqual({
      input: {
        prompt: 'user: hi\nassistant: hello\nuser: how are you?',
        system_prompt: 'be kind',
        max_tokens: 64,
        temperature: 0.5,
      },
    });
    const polls = requestsTo(/^\/v1\/predictions\//).slice(polledBefore);
    expect(polls).toHaveLength(2);
    expect(polls.every((poll) => poll.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(answer).toMatchObject({
      model: LLAMA,
      choices: [{ message: { role: 'assistant', content: 'Hello there!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 14, completion_tokens: 3 },
    });
    expect(log).toMatchObject({ prompt_tokens: 14, completion_tokens: 3 });
    expect(quota).toBe(expectedQuota(LLAMA, REPLICATE, { prompt: 14, completion: 3 }));
  });

  it("streams from the prediction's event stream and bills counted tokens", async () => {
    const pieces = ['Hello', ' world', '\nbye'];
    rig.fake.configure({ token: TOKEN, pieces });
    const messages = [{ role: 'user' as const, content: 'stream please' }];
    const contents: string[] = [];
    const finishes: Array<string | null | undefined> = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: LLAMA,
        messages,
        stream: true,
      });
      for await (const chunk of stream) {
        contents.push(chunk.choices[0]?.delta?.content ?? '');
        finishes.push(chunk.choices[0]?.finish_reason);
      }
    });
    const streamed = rig.fake.last();
    expect(streamed.url).toMatch(/^\/v1\/streams\//);
    expect(streamed.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(contents.filter(Boolean)).toEqual(pieces);
    expect(finishes.at(-1)).toBe('stop');
    const text = pieces.join('');
    const usage = { prompt: counter.messages(messages, LLAMA), completion: counter.text(text, LLAMA) };
    expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
    expect(quota).toBe(expectedQuota(LLAMA, REPLICATE, usage));
  });

  it('draws an image with a flux model, answers its URL or its bytes, and bills one picture', async () => {
    rig.fake.configure({ token: TOKEN, pollsBeforeDone: 1 });
    const price = Math.floor(resolveModelRatio(FLUX, REPLICATE) * 1000);
    expect(price).toBe(1500);
    let url: string | undefined;
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.images.generate({
        model: FLUX,
        prompt: 'a red fox',
        size: '1792x1024',
      });
      url = answer.data?.[0]?.url;
    });
    expect(requestsTo(/\/predictions$/).at(-1)?.json).toEqual({
      input: { prompt: 'a red fox', aspect_ratio: '7:4' },
    });
    expect(url).toMatch(/\/files\/pred\d+\.png$/);
    expect(quota).toBe(price);
    const inline = await rig.customer.openai.images.generate({
      model: FLUX,
      prompt: 'a fox',
      response_format: 'b64_json',
    });
    expect(inline.data?.[0]?.b64_json).toBe(PNG_BYTES.toString('base64'));
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.images.generate({ model: FLUX, prompt: 'two foxes', n: 2 }),
    );
    expect(error).toMatchObject({ status: 400, error: { code: 'n_not_within_range' } });
    expect(refunded).toBe(true);
  });

  it("downloads a picture only from Replicate: one said to be in the gateway's own network is refused and refunded", async () => {
    rig.fake.configure({ token: TOKEN, filesAt: 'http://169.254.169.254' });
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.images.generate({ model: FLUX, prompt: 'a fox', response_format: 'b64_json' }),
    );
    expect(error).toMatchObject({ status: 502, error: { code: 'bad_upstream_answer' } });
    expect(JSON.stringify(error)).toContain('picture URL on another host (169.254.169.254)');
    expect(refunded).toBe(true);
  });

  it('passes the channel test with its first chat model (image models skipped)', async () => {
    rig.fake.configure({ token: TOKEN, pieces: ['pong'] });
    const response = await rig.root.get<{ success: boolean; message: string; modelName: string }>(
      `/api/channel/test/${rig.channelId}`,
    );
    expect(response.body).toMatchObject({ success: true, message: 'pong', modelName: LLAMA });
  });

  it('a failed prediction is an error in OpenAI shape and refunds, streaming or not', async () => {
    rig.fake.configure({ token: TOKEN, fails: 'CUDA out of memory', pollsBeforeDone: 1 });
    for (const stream of [false, true]) {
      const { error, refunded } = await expectRefunded(rig.t, rig.customer, async () => {
        const answer = await rig.customer.openai.chat.completions.create({
          model: LLAMA,
          messages: [{ role: 'user', content: 'x' }],
          stream,
        });
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
      });
      expect(String((error as Error).message)).toContain('CUDA out of memory');
      expect(refunded).toBe(true);
    }
  });

  it("maps Replicate's problem details (401, 404) to OpenAI's error shape without the key", async () => {
    rig.fake.configure({ token: TOKEN });
    const refused = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'meta/llama-2-7b-chat',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(refused.error).toMatchObject({
      status: 401,
      error: { message: expect.stringContaining('valid authentication token'), code: 'Unauthenticated' },
    });
    expect(String((refused.error as Error).message)).not.toContain('r8_wrongToken456');
    expect(refused.refunded).toBe(true);
    const missing = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'meta/missing',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(missing.error).toMatchObject({ status: 404 });
  });
});
