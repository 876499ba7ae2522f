import { describe, expect, it } from 'vitest';
import { HttpFake } from '../fakes/http-fake';
import { ollamaHandler } from '../fakes/ollama';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const OLLAMA = 30;
const MODEL = 'llama3:latest';

describe('Ollama channels (native /api/chat and /api/embed)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(ollamaHandler()).start(),
    channels: [
      {
        type: OLLAMA,
        key: 'ollama-key',
        models: `${MODEL},nomic-embed-text,missing:latest`,
      },
    ],
    customer: 'llama-user',
  });

  it('converts a chat request, answers in OpenAI format and bills the reported counts', async () => {
    rig.fake.use(ollamaHandler({ reply: 'Hi there', promptEvalCount: 21, evalCount: 4 }));
    let answer: Awaited<ReturnType<typeof rig.customer.openai.chat.completions.create>> | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief' },
          { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
        ],
        temperature: 0.3,
        top_p: 0.9,
        max_tokens: 50,
        stop: 'END',
      });
    });
    expect(answer).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 },
    });
    const upstream = rig.fake.last();
    expect(upstream.method).toBe('POST');
    expect(upstream.url).toBe('/api/chat');
    expect(upstream.headers.authorization).toBe('Bearer ollama-key');
    expect(upstream.json).toEqual({
      model: MODEL,
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Hello' },
      ],
      options: { temperature: 0.3, top_p: 0.9, num_predict: 50, stop: ['END'] },
    });
    expect(quota).toBe(expectedQuota(MODEL, OLLAMA, { prompt: 21, completion: 4 }));
    expect(log).toMatchObject({ prompt_tokens: 21, completion_tokens: 4, model_name: MODEL });
  });

  it('streams NDJSON lines as ordered chunks and bills from the final counts', async () => {
    rig.fake.use(ollamaHandler({ reply: 'one two three four', promptEvalCount: 30, evalCount: 12 }));
    const contents: string[] = [];
    const finishes: Array<string | null | undefined> = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'count' }],
        stream: true,
      });
      for await (const chunk of stream) {
        contents.push(chunk.choices[0]?.delta?.content ?? '');
        finishes.push(chunk.choices[0]?.finish_reason);
      }
    });
    expect(rig.fake.last().json).toMatchObject({ stream: true, model: MODEL });
    expect(contents.filter(Boolean)).toEqual(['one', ' two', ' three', ' four']);
    expect(contents.join('')).toBe('one two three four');
    expect(finishes.at(-1)).toBe('stop');
    expect(quota).toBe(expectedQuota(MODEL, OLLAMA, { prompt: 30, completion: 12 }));
    expect(log).toMatchObject({ prompt_tokens: 30, completion_tokens: 12 });
  });

  it('relays embeddings through /api/embed with an input list', async () => {
    rig.fake.use(ollamaHandler());
    let vectors: number[][] = [];
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.embeddings.create({
        model: 'nomic-embed-text',
        input: ['a', 'b'],
      });
      vectors = answer.data.map((item) => item.embedding);
    });
    expect(rig.fake.last().url).toBe('/api/embed');
    expect(rig.fake.last().json).toEqual({ model: 'nomic-embed-text', input: ['a', 'b'] });
    expect(vectors).toEqual([
      [0, 0.5, -0.25],
      [1, 0.5, -0.25],
    ]);
    expect(quota).toBe(expectedQuota('nomic-embed-text', OLLAMA, { prompt: 6, completion: 0 }));
    const floats = await rig.customer.openai.embeddings.create({
      model: 'nomic-embed-text',
      input: 'c',
      encoding_format: 'float',
    });
    expect(floats.data[0]?.embedding).toEqual([0, 0.5, -0.25]);
  });

  it('passes an unknown model error on with its status and refunds', async () => {
    rig.fake.use(ollamaHandler());
    const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: 'missing:latest',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ status: 404 });
    expect(String((error as Error).message)).toContain('not found, try pulling it first');
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
  });

  it('a refused key (a proxy in front of Ollama) is a 401 that refunds, streaming too', async () => {
    rig.fake.use(ollamaHandler({ requiredKey: 'another-key' }));
    for (const stream of [false, true]) {
      const { error, refunded } = await expectRefunded(rig.t, rig.customer, async () => {
        const answer = await rig.customer.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'x' }],
          stream,
        });
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
      });
      expect(error).toMatchObject({ status: 401 });
      expect(refunded).toBe(true);
    }
  });
});
