import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/relay/pipeline/tokenizer';
import { HttpFake } from '../fakes/http-fake';
import { palmHandler } from '../fakes/palm';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const PALM = 11;
const MODEL = 'PaLM-2';
const KEY = 'AIzaSyFakePalmKey';
const counter = createTokenCounter(() => false);

describe('Google PaLM 2 channels (generateMessage)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(palmHandler({ apiKey: KEY })).start(),
    channels: [{ type: PALM, key: KEY, models: MODEL }],
    customer: 'palm-user',
  });

  it('sends the prompt with context and alternating authors, and bills counted tokens', async () => {
    const reply = 'PaLM says hello back to you.';
    rig.fake.use(palmHandler({ apiKey: KEY, reply }));
    const messages = [
      { role: 'system' as const, content: 'You are a poet.' },
      { role: 'user' as const, content: 'Hello' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'Write a line' }] },
      { role: 'assistant' as const, content: 'Sure.' },
      { role: 'user' as const, content: 'Go' },
    ];
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages,
        temperature: 0.7,
        top_p: 0.9,
      });
    });
    const upstream = rig.fake.last();
    expect(upstream.headers['x-goog-api-key']).toBe(KEY);
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.json).toEqual({
      prompt: {
        context: 'You are a poet.',
        messages: [
          { author: '0', content: 'Hello\n\nWrite a line' },
          { author: '1', content: 'Sure.' },
          { author: '0', content: 'Go' },
        ],
      },
      temperature: 0.7,
      topP: 0.9,
    });
    expect(answer).toMatchObject({
      object: 'chat.completion',
      model: MODEL,
      choices: [{ message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
    });
    // PaLM reports no usage: the gateway counts both sides.
    const usage = {
      prompt: counter.messages(messages, MODEL),
      completion: counter.text(reply, MODEL),
    };
    expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
    expect(quota).toBe(expectedQuota(MODEL, PALM, usage));
  });

  it('answers a stream request with the whole answer as one chunk, then [DONE]', async () => {
    const reply = 'One answer, all at once.';
    rig.fake.use(palmHandler({ apiKey: KEY, reply }));
    const messages = [{ role: 'user' as const, content: 'stream please' }];
    const chunks: Array<{ content?: string | null; finish?: string | null }> = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages,
        stream: true,
      });
      for await (const chunk of stream) {
        chunks.push({ content: chunk.choices[0]?.delta?.content, finish: chunk.choices[0]?.finish_reason });
      }
    });
    expect(rig.fake.last().json).not.toHaveProperty('stream');
    expect(chunks).toEqual([
      { content: reply, finish: null },
      { content: undefined, finish: 'stop' },
    ]);
    const usage = { prompt: counter.messages(messages, MODEL), completion: counter.text(reply, MODEL) };
    expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
    expect(quota).toBe(expectedQuota(MODEL, PALM, usage));
  });

  it('a blocked answer (filters, no candidates) finishes with content_filter', async () => {
    rig.fake.use(palmHandler({ apiKey: KEY, blocked: true }));
    const answer = await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'something blocked' }],
    });
    expect(answer.choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'content_filter' });
  });

  it('maps Google errors and refunds, streaming or not', async () => {
    const cases: Array<[code: number, status: string]> = [
      [429, 'RESOURCE_EXHAUSTED'],
      [400, 'INVALID_ARGUMENT'],
      [500, 'INTERNAL'],
    ];
    for (const [code, status] of cases) {
      rig.fake.use(palmHandler({ apiKey: KEY, error: { code, status } }));
      for (const stream of [false, true]) {
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'x' }],
            stream,
          });
          if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
        });
        expect(error).toMatchObject({ status: code });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    }
  });

  it('an invalid key is a 401 for streams too: refunded, channel disabled', async () => {
    await rig.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    rig.fake.use(palmHandler({ apiKey: 'AIzaSyTheRealKey' }));
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      for await (const _chunk of stream) break;
    });
    expect(error).toMatchObject({ status: 401, type: 'authentication_error' });
    expect(refunded).toBe(true);
    const channel = await rig.t.db.kysely
      .selectFrom('channels')
      .select('status')
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(channel.status).toBe(3);
  });
});
