import { channelTypeById } from '@switchyard/contract/channel-types';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { HttpFake } from '../fakes/http-fake';
import { openAiError, openAiHandler } from '../fakes/openai';
import { createChannel } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

interface Case {
  type: number;
  /** one-api's default base URL for the type (facts §5). */
  defaultBaseUrl: string;
  /** A path the real base URL carries, kept in front of the fake's. */
  basePath: string;
  model: string;
  key: string;
  path: string;
}

const CHAT = '/v1/chat/completions';

/** Direct providers and FastGPT that speak OpenAI's format, each at its own base URL. */
const CASES: Case[] = [
  {
    type: 19,
    defaultBaseUrl: 'https://ai.360.cn',
    basePath: '',
    model: '360GPT_S2_V9',
    key: 'k360',
    path: CHAT,
  },
  {
    type: 25,
    defaultBaseUrl: 'https://api.moonshot.cn',
    basePath: '',
    model: 'moonshot-v1-8k',
    key: 'sk-moonshot',
    path: CHAT,
  },
  {
    type: 26,
    defaultBaseUrl: 'https://api.baichuan-ai.com',
    basePath: '',
    model: 'Baichuan2-Turbo',
    key: 'sk-baichuan',
    path: CHAT,
  },
  {
    type: 27,
    defaultBaseUrl: 'https://api.minimax.chat',
    basePath: '',
    model: 'abab6.5s-chat',
    key: 'minimax-key',
    path: '/v1/text/chatcompletion_v2',
  },
  {
    type: 28,
    defaultBaseUrl: 'https://api.mistral.ai',
    basePath: '',
    model: 'mistral-small-latest',
    key: 'mistral-key',
    path: CHAT,
  },
  {
    type: 29,
    defaultBaseUrl: 'https://api.groq.com/openai',
    basePath: '/openai',
    model: 'llama3-8b-8192',
    key: 'gsk_groq',
    path: `/openai${CHAT}`,
  },
  {
    type: 31,
    defaultBaseUrl: 'https://api.lingyiwanwu.com',
    basePath: '',
    model: 'yi-34b-chat-0205',
    key: 'yi-key',
    path: CHAT,
  },
  {
    type: 32,
    defaultBaseUrl: 'https://api.stepfun.com',
    basePath: '',
    model: 'step-1-8k',
    key: 'step-key',
    path: CHAT,
  },
  {
    type: 22,
    defaultBaseUrl: 'https://fastgpt.run/api/openapi',
    basePath: '/api/openapi',
    model: 'gpt-3.5-turbo',
    // FastGPT keys look like APIKey-AppId and go upstream whole.
    key: 'fastgpt-k3y-64f0c1d2e3',
    path: `/api/openapi${CHAT}`,
  },
];

const REPLY = 'compatible reply';
/** Statuses the fake answers errors with, one per case in turn; each must reach the client unchanged. */
const ERROR_STATUSES = [400, 404, 422, 500, 503];
const USAGE = { prompt_tokens: 11, completion_tokens: 7 };

describe('OpenAI-compatible provider types', () => {
  const rig = providerRig({
    fake: () => new HttpFake(openAiHandler({ reply: REPLY, usage: USAGE })).start(),
    customer: 'compatible',
  });

  const onlyChannel = async (spec: Case) => {
    rig.fake.use(openAiHandler({ reply: REPLY, usage: USAGE }));
    await rig.t.db.kysely.deleteFrom('abilities').execute();
    await rig.t.db.kysely.deleteFrom('channels').execute();
    rig.t.app.services.router.invalidate();
    return createChannel(rig.root, {
      type: spec.type,
      base_url: `${rig.fake.url}${spec.basePath}`,
      key: spec.key,
      models: spec.model,
    });
  };

  it.each(CASES)('type $type has the default base URL one-api uses', ({ type, defaultBaseUrl }) => {
    expect(channelTypeById(type)).toMatchObject({ apiStyle: 'openai', defaultBaseUrl });
  });

  it.each(CASES)('type $type relays chat to its URL with a Bearer key and bills the usage', async (spec) => {
    const channelId = await onlyChannel(spec);
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: spec.model,
        messages: [{ role: 'user', content: 'hello there' }],
      });
      expect(answer.choices[0]?.message.content).toBe(REPLY);
    });
    expect(rig.fake.last()).toMatchObject({
      method: 'POST',
      url: spec.path,
      headers: { authorization: `Bearer ${spec.key}` },
      json: { model: spec.model, messages: [{ role: 'user', content: 'hello there' }] },
    });
    expect(quota).toBe(expectedQuota(spec.model, spec.type, { prompt: 11, completion: 7 }));
    expect(log).toMatchObject({ channel_id: channelId, model_name: spec.model, prompt_tokens: 11 });
  });

  it.each(CASES)('type $type streams in order and bills the usage chunk or its own count', async (spec) => {
    await onlyChannel(spec);
    const pieces: string[] = [];
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: spec.model,
        messages: [{ role: 'user', content: 'stream it' }],
        stream: true,
      });
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    });
    const upstream = rig.fake.last();
    expect(upstream).toMatchObject({ url: spec.path, headers: { authorization: `Bearer ${spec.key}` } });
    expect(upstream.json).toMatchObject({ model: spec.model, stream: true });
    expect(pieces.join('')).toBe(REPLY);
    // The fake reports usage only when asked with stream_options; otherwise the gateway counts.
    const asked = Boolean(
      (upstream.json?.stream_options as { include_usage?: boolean } | undefined)?.include_usage,
    );
    const usage = asked
      ? { prompt: 11, completion: 7 }
      : { prompt: 3 + 3 + countTokens('stream it') + countTokens('user'), completion: countTokens(REPLY) };
    expect(quota).toBe(expectedQuota(spec.model, spec.type, usage));
    expect(log).toMatchObject({ prompt_tokens: usage.prompt, completion_tokens: usage.completion });
  });

  it.each(CASES.map((spec, index) => ({ ...spec, status: ERROR_STATUSES[index % ERROR_STATUSES.length]! })))(
    'type $type passes an OpenAI-shaped $status error on with its type and code, refunded',
    async (spec) => {
      await onlyChannel(spec);
      const message = `${spec.model} is not available to this key`;
      for (const stream of [false, true]) {
        rig.fake.use(openAiError(spec.status, message, 'invalid_request_error', 'model_not_found'));
        const { error, refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
          const answer = await rig.customer.openai.chat.completions.create({
            model: spec.model,
            messages: [{ role: 'user', content: 'fail please' }],
            stream,
          });
          if (stream) for await (const _ of answer as AsyncIterable<unknown>);
        });
        expect(rig.fake.last()).toMatchObject({
          url: spec.path,
          headers: { authorization: `Bearer ${spec.key}` },
        });
        expect(error).toBeInstanceOf(OpenAI.APIError);
        const apiError = error as InstanceType<typeof OpenAI.APIError>;
        expect(apiError.status).toBe(spec.status);
        expect(apiError.error).toMatchObject({
          message: expect.stringContaining(message),
          type: 'invalid_request_error',
          code: 'model_not_found',
        });
        expect(refunded).toBe(true);
        expect(logged).toBe(false);
      }
    },
  );
});
