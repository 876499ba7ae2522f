import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/relay/pipeline/tokenizer';
import { cozeHandler } from '../fakes/coze';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const COZE = 34;
const TOKEN = 'pat_fakeCozeToken123';
const MODEL = 'bot-7340012345';
const counter = createTokenCounter(() => false);

describe('Coze channels (chat API v2, bots as models)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(cozeHandler({ token: TOKEN })).start(),
    channels: [
      { type: COZE, key: TOKEN, models: MODEL, config: JSON.stringify({ user_id: 'u-42' }) },
      { type: COZE, key: 'pat_wrongToken999', models: 'bot-1', config: JSON.stringify({ user_id: 'u-1' }) },
      { type: COZE, key: TOKEN, models: 'bot-2', config: JSON.stringify({ user_id: 'u-2' }) },
    ],
    customer: 'coze-user',
  });

  it('asks the bot with the last message as query and the rest as history, and bills counted tokens', async () => {
    const reply = 'Tomorrow will be sunny too.';
    rig.fake.use(cozeHandler({ token: TOKEN, reply }));
    const messages = [
      { role: 'user' as const, content: 'weather today?' },
      { role: 'assistant' as const, content: 'Sunny.' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'and tomorrow?' }] },
    ];
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({ model: MODEL, messages });
    });
    const upstream = rig.fake.last();
    expect(upstream.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(upstream.json).toEqual({
      bot_id: '7340012345',
      user: 'u-42',
      query: 'and tomorrow?',
      chat_history: [
        { role: 'user', content: 'weather today?', content_type: 'text' },
        { role: 'assistant', type: 'answer', content: 'Sunny.', content_type: 'text' },
      ],
      stream: false,
    });
    expect(answer).toMatchObject({
      id: 'chatcmpl-conv-7',
      object: 'chat.completion',
      model: MODEL,
      choices: [{ message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
    });
    // Coze reports no usage: the gateway counts both sides.
    const usage = { prompt: counter.messages(messages, MODEL), completion: counter.text(reply, MODEL) };
    expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
    expect(quota).toBe(expectedQuota(MODEL, COZE, usage));
  });

  it('streams answer messages as chunks, drops follow-ups, ends with stop and [DONE]', async () => {
    const reply = 'one two three';
    rig.fake.use(cozeHandler({ token: TOKEN, reply }));
    const messages = [{ role: 'user' as const, content: 'count' }];
    const contents: string[] = [];
    const finishes: Array<string | null | undefined> = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages,
        stream: true,
      });
      for await (const chunk of stream) {
        contents.push(chunk.choices[0]?.delta?.content ?? '');
        finishes.push(chunk.choices[0]?.finish_reason);
      }
    });
    expect(rig.fake.last().json).toMatchObject({ stream: true, query: 'count', chat_history: [] });
    expect(contents.join('')).toBe(reply);
    expect(finishes.at(-1)).toBe('stop');
    const usage = { prompt: counter.messages(messages, MODEL), completion: counter.text(reply, MODEL) };
    expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
    expect(quota).toBe(expectedQuota(MODEL, COZE, usage));
  });

  it('ends a stream whose bot fails midway with the error, after the text it sent', async () => {
    rig.fake.use(
      cozeHandler({ token: TOKEN, reply: 'partial answer', streamError: { code: 5000, msg: 'bot crashed' } }),
    );
    let text = '';
    const failure = await (async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(text).toBe('partial');
    expect(String((failure as Error).message)).toContain('bot crashed');
  });

  it('passes the channel test with the bot as model', async () => {
    rig.fake.use(cozeHandler({ token: TOKEN, reply: 'pong' }));
    const response = await rig.root.get<{ success: boolean; message: string; modelName: string }>(
      `/api/channel/test/${rig.channelId}`,
    );
    expect(response.body).toMatchObject({ success: true, message: 'pong', modelName: MODEL });
  });

  it("maps a refused token (code 4100 on HTTP 200) to a 401 in OpenAI's shape without the key, and refunds", async () => {
    rig.fake.use(cozeHandler({ token: TOKEN }));
    for (const stream of [false, true]) {
      const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
        const answer = await rig.customer.openai.chat.completions.create({
          model: 'bot-1',
          messages: [{ role: 'user', content: 'x' }],
          stream,
        });
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
      });
      expect(error).toMatchObject({ status: 401, error: { type: 'upstream_error', code: 4100 } });
      const message = String((error as { error: { message: string } }).error.message);
      expect(message).toContain('authentication is invalid');
      expect(message).not.toContain('pat_wrongToken999');
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    }
  });

  it('names the missing User ID of a channel without one', async () => {
    // The form requires it; a row from an older database may still lack it.
    await rig.t.db.kysely
      .updateTable('channels')
      .set({ config: '{}' })
      .where('id', '=', rig.channels[2]!)
      .execute();
    const response = await rig.root.get<{ success: boolean; message: string }>(
      `/api/channel/test/${rig.channels[2]}`,
    );
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(/User ID/);
  });
});
