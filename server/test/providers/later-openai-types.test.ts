import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { HttpFake } from '../fakes/http-fake';
import { openAiError, openAiHandler } from '../fakes/openai';
import { createChannel } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectRefunded } from './quota-check';

/**
 * Chat and streams of these types, billed, are in openai-family.test.ts with the rest of the family;
 * this suite holds what is theirs alone: URL rules beyond chat, refusals, the channel test.
 */
interface Case {
  type: number;
  /** The path the real base URL carries (kept in front of the fake's). */
  basePath: string;
  model: string;
  key: string;
  /** Where chat completions must arrive. */
  chatPath: string;
}

/** one-api's OpenAI-format types after v0.6.5, each with its URL rule (one-api-latest-channels §2). */
const LATER_OPENAI_CASES: Case[] = [
  { type: 36, basePath: '', model: 'deepseek-chat', key: 'sk-deepseek', chatPath: '/v1/chat/completions' },
  {
    type: 39,
    basePath: '',
    model: 'meta-llama/Llama-3-70b-chat-hf',
    key: 'together-key',
    chatPath: '/v1/chat/completions',
  },
  {
    type: 40,
    basePath: '',
    model: 'ep-20240608051426-tkxvl',
    key: 'ark-key',
    chatPath: '/api/v3/chat/completions',
  },
  {
    type: 41,
    basePath: '/v3/openai',
    model: 'meta-llama/llama-3-8b-instruct',
    key: 'novita-key',
    chatPath: '/v3/openai/chat/completions',
  },
  {
    type: 44,
    basePath: '',
    model: 'Qwen/Qwen2-7B-Instruct',
    key: 'sk-siliconflow',
    chatPath: '/v1/chat/completions',
  },
  { type: 45, basePath: '', model: 'grok-beta', key: 'xai-key', chatPath: '/v1/chat/completions' },
  {
    type: 47,
    basePath: '',
    model: 'deepseek-r1',
    key: 'bce-v3/ALTAK-qianfan',
    chatPath: '/v2/chat/completions',
  },
  {
    type: 48,
    basePath: '',
    model: 'generalv3.5',
    key: 'spark-api-password',
    chatPath: '/v1/chat/completions',
  },
  {
    type: 49,
    basePath: '',
    model: 'qwen-plus',
    key: 'sk-dashscope',
    chatPath: '/compatible-mode/v1/chat/completions',
  },
  {
    type: 50,
    basePath: '/custom/v1',
    model: 'gpt-4o-mini',
    key: 'sk-compat',
    chatPath: '/custom/v1/chat/completions',
  },
  {
    type: 51,
    basePath: '/v1beta/openai',
    model: 'gemini-2.0-flash',
    key: 'AIza-gemini',
    chatPath: '/v1beta/openai/chat/completions',
  },
];

const REPLY = 'later types reply';
const USAGE = { prompt_tokens: 13, completion_tokens: 5 };

describe("one-api's later OpenAI-format types", () => {
  const rig = providerRig({
    fake: () => new HttpFake(openAiHandler({ reply: REPLY, usage: USAGE })).start(),
    customer: 'later-openai',
  });

  const onlyChannel = async (spec: Case, extra: { models?: string; base_url?: string } = {}) => {
    rig.fake.use(openAiHandler({ reply: REPLY, usage: USAGE }));
    await rig.t.db.kysely.deleteFrom('abilities').execute();
    await rig.t.db.kysely.deleteFrom('channels').execute();
    rig.t.app.services.router.invalidate();
    return createChannel(rig.root, {
      type: spec.type,
      base_url: `${rig.fake.url}${spec.basePath}`,
      key: spec.key,
      models: spec.model,
      ...extra,
    });
  };

  it.each(LATER_OPENAI_CASES)(
    'type $type passes an upstream error on in OpenAI shape, key removed',
    async (spec) => {
      await onlyChannel(spec);
      const message = `Incorrect API key provided: ${spec.key}`;
      for (const stream of [false, true]) {
        rig.fake.use(openAiError(401, message, 'invalid_request_error', 'invalid_api_key'));
        const { error, refunded } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: spec.model,
            messages: [{ role: 'user', content: 'fail please' }],
            stream,
          });
          if (stream) for await (const _ of answer as AsyncIterable<unknown>);
        });
        expect(rig.fake.last()).toMatchObject({ url: spec.chatPath });
        expect(error).toBeInstanceOf(OpenAI.APIError);
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        expect(apiError.error).toMatchObject({
          message: expect.stringContaining('Incorrect API key provided'),
        });
        expect(JSON.stringify(apiError.error)).not.toContain(spec.key);
        expect(refunded).toBe(true);
      }
    },
  );

  it.each(LATER_OPENAI_CASES)('type $type is tested with the model ?model= names', async (spec) => {
    const id = await onlyChannel(spec, { models: `first-model,${spec.model}` });
    const chosen = await rig.root.get<{ success: boolean; modelName: string }>(
      `/api/channel/test/${id}/?model=${encodeURIComponent(spec.model)}`,
    );
    expect(chosen.body).toMatchObject({ success: true, modelName: spec.model });
    expect(rig.fake.last()).toMatchObject({
      url: spec.chatPath,
      headers: { authorization: `Bearer ${spec.key}` },
      json: { model: spec.model },
    });
    const fallback = await rig.root.get<{ modelName: string }>(`/api/channel/test/${id}/?model=not-listed`);
    expect(fallback.body.modelName).toBe('first-model');
    expect(rig.fake.last().json).toMatchObject({ model: 'first-model' });
  });

  it('sends embeddings of Doubao and Bailian to their own paths', async () => {
    for (const [type, path] of [
      [40, '/api/v3/embeddings'],
      [49, '/compatible-mode/v1/embeddings'],
    ] as const) {
      const spec = LATER_OPENAI_CASES.find((c) => c.type === type)!;
      await onlyChannel(spec, { models: 'embed-model' });
      const answer = await rig.customer.openai.embeddings.create({ model: 'embed-model', input: 'hello' });
      expect(answer.data).toHaveLength(1);
      expect(rig.fake.last()).toMatchObject({ url: path, headers: { authorization: `Bearer ${spec.key}` } });
    }
  });

  it('refuses the modes a type does not serve in OpenAI shape, without calling upstream', async () => {
    for (const type of [40, 41, 47, 49]) {
      const spec = LATER_OPENAI_CASES.find((c) => c.type === type)!;
      await onlyChannel(spec, { models: 'dall-e-3' });
      const received = rig.fake.requests.length;
      const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
        rig.customer.openai.images.generate({ model: 'dall-e-3', prompt: 'a cat' }),
      );
      expect(error, `type ${type}`).toBeInstanceOf(OpenAI.APIError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBeLessThan(500);
      expect(apiError.error).toMatchObject({
        code: 'unsupported_mode',
        message: expect.stringMatching(/only/),
      });
      expect(refunded).toBe(true);
      expect(rig.fake.requests.length).toBe(received);
    }
  });

  it('drops only a leading /v1 for OpenAI compatible, whatever the base URL ends with', async () => {
    const spec = LATER_OPENAI_CASES.find((c) => c.type === 50)!;
    await onlyChannel(spec, { base_url: `${rig.fake.url}/api/openai/` });
    await rig.customer.openai.chat.completions.create({
      model: spec.model,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(rig.fake.last().url).toBe('/api/openai/chat/completions');
  });

  it('refuses to relay through an OpenAI compatible channel stored without a base URL', async () => {
    const spec = LATER_OPENAI_CASES.find((c) => c.type === 50)!;
    await onlyChannel(spec, { base_url: '' });
    const received = rig.fake.requests.length;
    const { error, refunded } = await expectRefunded(rig.t, rig.customer, () =>
      rig.customer.openai.chat.completions.create({
        model: spec.model,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(503);
    expect(apiError.error).toMatchObject({ code: 'channel_base_url_missing' });
    expect(refunded).toBe(true);
    expect(rig.fake.requests.length).toBe(received);
  });
});
