import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { libraryHandler } from '../fakes/aiproxy-library';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const LIBRARY = 21;
const MODEL = 'gpt-3.5-turbo';
const REFERENCES = '\n\n参考文档：\n1. [Guide](https://docs.example.com/guide)\n';

describe('AI Proxy knowledge-library channels', () => {
  const rig = providerRig({
    fake: () => new HttpFake(libraryHandler({ key: 'aiproxy-key' })).start(),
    channels: [
      {
        type: LIBRARY,
        key: 'aiproxy-key',
        models: MODEL,
        other: 'lib-42',
      },
    ],
    customer: 'library-user',
  });

  /** The library reports no usage: the gateway counts the prompt and the answer itself. */
  const countedQuota = (question: string, answer: string) =>
    expectedQuota(MODEL, LIBRARY, {
      prompt: 3 + 3 + countTokens(question) + countTokens('user'),
      completion: countTokens(answer),
    });

  it('asks the library with the last message and appends the sources', async () => {
    rig.fake.use(libraryHandler({ key: 'aiproxy-key', answer: 'Use the guide' }));
    let content: string | null | undefined;
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'How do I start?' }],
      });
      content = answer.choices[0]?.message.content;
    });
    expect(rig.fake.last().headers.authorization).toBe('Bearer aiproxy-key');
    expect(rig.fake.last().json).toEqual({
      model: MODEL,
      query: 'How do I start?',
      libraryId: 'lib-42',
      stream: false,
    });
    expect(content).toBe(`Use the guide${REFERENCES}`);
    expect(quota).toBe(countedQuota('How do I start?', `Use the guide${REFERENCES}`));
  });

  it('streams the answer in order, then the sources and the finish', async () => {
    rig.fake.use(libraryHandler({ key: 'aiproxy-key', answer: 'step one then two' }));
    const pieces: string[] = [];
    let finish: string | null | undefined;
    await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'an answer' },
          { role: 'user', content: 'the real question' },
        ],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(rig.fake.last().json).toMatchObject({ query: 'the real question', stream: true });
    expect(pieces.filter(Boolean)).toEqual(['step', ' one', ' then', ' two', REFERENCES]);
    expect(finish).toBe('stop');
  });

  it('the library id may come from the channel config instead', async () => {
    rig.fake.use(libraryHandler({ key: 'aiproxy-key' }));
    const updated = await rig.root.put('/api/channel/', {
      id: rig.channelId,
      other: 'wrong',
      config: JSON.stringify({ library_id: 'lib-42' }),
    });
    expect(updated.body.success).toBe(true);
    const row = await rig.t.db.kysely
      .selectFrom('channels')
      .select(['other', 'config'])
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ other: 'wrong', config: '{"library_id":"lib-42"}' });
    const answer = await rig.customer.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(rig.fake.last().json).toMatchObject({ libraryId: 'lib-42' });
    expect(answer.choices[0]?.message.content).toContain('The library knows');
    await rig.root.put('/api/channel/', { id: rig.channelId, other: 'lib-42', config: '' });
  });

  it('an error inside a 200 answer and a refused key both fail and refund', async () => {
    await rig.root.put('/api/channel/', { id: rig.channelId, other: 'unknown-library' });
    rig.fake.use(libraryHandler({ key: 'aiproxy-key' }));
    const missing = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'q' }],
      }),
    );
    expect(missing.error).toMatchObject({ status: 500 });
    expect(String((missing.error as Error).message)).toContain('library not found');
    expect(missing.refunded).toBe(true);
    await rig.root.put('/api/channel/', { id: rig.channelId, other: 'lib-42' });

    rig.fake.use(libraryHandler({ key: 'a-different-key' }));
    for (const stream of [false, true]) {
      const refused = await expectRefunded(rig.t, rig.customer, async () => {
        const answer = await rig.customer.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'q' }],
          stream,
        });
        if (stream) for await (const _chunk of answer as AsyncIterable<unknown>) break;
      });
      expect(refused.error).toMatchObject({ status: 401 });
      expect(refused.refunded).toBe(true);
    }
  });
});
