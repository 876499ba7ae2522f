import { describe, expect, it } from 'vitest';
import { cohereHandler } from '../fakes/cohere';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const COHERE = 35;
const KEY = 'co-fake-key-123';

describe('Cohere channels (v1 Chat API)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(cohereHandler({ key: KEY })).start(),
    channels: [
      { type: COHERE, key: KEY, models: 'command-r,command-r-plus-internet' },
      { type: COHERE, key: 'co-wrong-key-456', models: 'command-light' },
    ],
    customer: 'cohere-user',
  });

  it('sends preamble, history and the last user message, and bills the billed units', async () => {
    rig.fake.use(
      cohereHandler({ key: KEY, reply: 'Short answer.', billed: { input_tokens: 21, output_tokens: 4 } }),
    );
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: 'command-r',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: 'second question' },
        ],
        temperature: 0.3,
        top_p: 0.8,
        max_tokens: 40,
        stop: ['END'],
      });
    });
    const upstream = rig.fake.last();
    expect(upstream.url).toBe('/v1/chat');
    expect(upstream.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(upstream.json).toEqual({
      message: 'second question',
      model: 'command-r',
      stream: false,
      preamble: 'be brief',
      chat_history: [
        { role: 'USER', message: 'first question' },
        { role: 'CHATBOT', message: 'first answer' },
      ],
      max_tokens: 40,
      temperature: 0.3,
      p: 0.8,
      stop_sequences: ['END'],
    });
    expect(answer).toMatchObject({
      id: 'chatcmpl-resp-1',
      model: 'command-r',
      choices: [{ message: { role: 'assistant', content: 'Short answer.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 },
    });
    expect(log).toMatchObject({ prompt_tokens: 21, completion_tokens: 4 });
    expect(quota).toBe(expectedQuota('command-r', COHERE, { prompt: 21, completion: 4 }));
  });

  it('streams JSON lines as chunks with web search for -internet, billing stream-end usage', async () => {
    rig.fake.use(
      cohereHandler({ key: KEY, reply: 'one two three', billed: { input_tokens: 30, output_tokens: 3 } }),
    );
    const contents: string[] = [];
    const finishes: Array<string | null | undefined> = [];
    const model = 'command-r-plus-internet';
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'news?' }],
        stream: true,
      });
      for await (const chunk of stream) {
        contents.push(chunk.choices[0]?.delta?.content ?? '');
        finishes.push(chunk.choices[0]?.finish_reason);
      }
    });
    expect(rig.fake.last().json).toEqual({
      message: 'news?',
      model: 'command-r-plus',
      stream: true,
      connectors: [{ id: 'web-search' }],
    });
    expect(contents.join('')).toBe('one two three');
    expect(finishes.at(-1)).toBe('stop');
    expect(log).toMatchObject({ prompt_tokens: 30, completion_tokens: 3, model_name: model });
    // `-internet` costs the model's ratio with completion ratio 1, as one-api prices it.
    expect(quota).toBe(expectedQuota(model, COHERE, { prompt: 30, completion: 3 }));
    expect(quota).toBe(Math.ceil((30 + 3) * 1.5));
  });

  it('passes the channel test', async () => {
    rig.fake.use(cohereHandler({ key: KEY, reply: 'pong' }));
    const response = await rig.root.get<{ success: boolean; message: string }>(
      `/api/channel/test/${rig.channelId}`,
    );
    expect(response.body).toMatchObject({ success: true, message: 'pong' });
  });

  it("maps a refused key to a 401 in OpenAI's shape without the key, and refunds", async () => {
    rig.fake.use(cohereHandler({ key: KEY }));
    for (const stream of [false, true]) {
      const { error, refunded } = await expectRefunded(rig.t, rig.customer, async () => {
        const answer = await rig.customer.openai.chat.completions.create({
          model: 'command-light',
          messages: [{ role: 'user', content: 'x' }],
          stream,
        });
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
      });
      expect(error).toMatchObject({ status: 401, error: { type: 'upstream_error' } });
      const message = String((error as { error: { message: string } }).error.message);
      expect(message).toContain('invalid api token');
      expect(message).not.toContain('co-wrong-key-456');
      expect(refunded).toBe(true);
    }
  });
});
