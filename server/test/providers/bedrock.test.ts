import { describe, expect, it } from 'vitest';
import { FakeBedrock } from '../fakes/bedrock';
import { HttpFake } from '../fakes/http-fake';
import { providerRig } from './provider-rig';
import { expectedQuota, spentBy } from './quota-check';

const AWS = 33;
const IDENTITY = {
  region: 'us-west-2',
  accessKeyId: 'AKIAFAKEBEDROCK00001',
  secretAccessKey: 'fakeSecretAccessKey/Bedrock+0123456789abcd',
};
const config = (secretAccessKey = IDENTITY.secretAccessKey) =>
  JSON.stringify({ region: IDENTITY.region, ak: IDENTITY.accessKeyId, sk: secretAccessKey });

const CLAUDE = 'claude-3-haiku-20240307';
const LLAMA = 'llama3-8b-8192';

describe('AWS Bedrock channels (SigV4, InvokeModel, the binary event stream)', () => {
  const bedrock = new FakeBedrock(IDENTITY);
  const rig = providerRig({
    fake: () => new HttpFake(bedrock.handler).start(),
    channels: [
      { name: 'bedrock', type: AWS, key: '', models: `${CLAUDE},${LLAMA},claude-9`, config: config() },
      {
        name: 'bedrock-wrong-secret',
        type: AWS,
        key: '',
        models: 'claude-3-opus-20240229',
        config: config('theWrongSecretAccessKey0123456789abcdefgh'),
      },
    ],
    customer: 'bedrock-user',
  });

  /** /v1/messages with the customer's key. */
  const messages = (body: unknown) =>
    fetch(`${rig.t.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': rig.customer.token.key,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  it('composes the key as one-api does and shows the AK/SK to root only', async () => {
    const row = await rig.t.db.kysely
      .selectFrom('channels')
      .select(['key', 'config'])
      .where('id', '=', rig.channelId)
      .executeTakeFirstOrThrow();
    expect(row.key).toBe(`${IDENTITY.accessKeyId}|${IDENTITY.secretAccessKey}|${IDENTITY.region}`);
    const asRoot = await rig.root.get<{ data: { config: string } }>(`/api/channel/${rig.channelId}`);
    expect(JSON.parse(asRoot.body.data.config)).toMatchObject({ sk: IDENTITY.secretAccessKey });
    const admin = await rig.t.user('bdrk-admin', { role: 'admin' });
    const asAdmin = await admin.get<{ data: { key: string; config: string } }>('/api/channel/?p=0');
    expect(asAdmin.text).not.toContain(IDENTITY.secretAccessKey);
    expect(asAdmin.text).not.toContain(IDENTITY.accessKeyId);
    const seen = await admin.get<{ data: { key: string; config: string } }>(`/api/channel/${rig.channelId}`);
    expect(JSON.parse(seen.body.data.config)).toEqual({ region: IDENTITY.region, ak: '', sk: '' });
  });

  it('signs InvokeModel, sends Claude the Bedrock envelope and bills the reported usage', async () => {
    bedrock.configure({ reply: 'Bonjour', usage: { input: 21, output: 7 } });
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
        temperature: 0.7,
      });
      expect(answer.choices[0]?.message.content).toBe('Bonjour');
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 7 });
    });
    const upstream = bedrock.verified.at(-1)!;
    expect(upstream.url).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
    expect(upstream.json).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      system: 'be brief',
      max_tokens: 4096,
      temperature: 0.7,
    });
    expect(quota).toBe(expectedQuota(CLAUDE, AWS, { prompt: 21, completion: 7 }));
    expect(log).toMatchObject({ model_name: CLAUDE, prompt_tokens: 21, completion_tokens: 7 });
  });

  it('streams Claude from event-stream frames and bills the usage of message_start and message_delta', async () => {
    bedrock.configure({ reply: 'one two three', usage: { input: 30, output: 9 } });
    const pieces: string[] = [];
    let finish: string | null | undefined;
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'count' }],
        stream: true,
      });
      for await (const chunk of stream) {
        pieces.push(chunk.choices[0]?.delta?.content ?? '');
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(bedrock.verified.at(-1)?.url).toBe(
      '/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream',
    );
    expect(pieces.join('')).toBe('one two three');
    expect(finish).toBe('stop');
    expect(quota).toBe(expectedQuota(CLAUDE, AWS, { prompt: 30, completion: 9 }));
  });

  it('builds the Llama 3 prompt and bills its token counts, streamed or not', async () => {
    bedrock.configure({ reply: 'Llama says hi', usage: { input: 17, output: 3 } });
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: LLAMA,
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'U' },
        ],
      });
      expect(answer.choices[0]?.message.content).toBe('Llama says hi');
    });
    const upstream = bedrock.verified.at(-1)!;
    expect(upstream.url).toBe('/model/meta.llama3-8b-instruct-v1%3A0/invoke');
    expect(upstream.json).toEqual({
      prompt:
        '<|begin_of_text|><|start_header_id|>system<|end_header_id|>S<|eot_id|><|start_header_id|>user<|end_header_id|>U<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n',
      max_gen_len: 2048,
    });
    expect(quota).toBe(expectedQuota(LLAMA, AWS, { prompt: 17, completion: 3 }));

    const pieces: string[] = [];
    const streamed = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: LLAMA,
        messages: [{ role: 'user', content: 'U' }],
        stream: true,
      });
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    });
    expect(pieces.join('')).toBe('Llama says hi');
    expect(streamed.quota).toBe(expectedQuota(LLAMA, AWS, { prompt: 17, completion: 3 }));
  });

  it('passes /v1/messages through in Anthropic format, in the Bedrock envelope', async () => {
    bedrock.configure({ reply: 'Native hello', usage: { input: 12, output: 4 } });
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const response = await messages({
        model: CLAUDE,
        max_tokens: 100,
        system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'hi' }],
        top_k: 5,
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        type: 'message',
        id: 'msg_bdrk_01Fake',
        content: [{ type: 'text', text: 'Native hello' }],
      });
    });
    expect(bedrock.verified.at(-1)?.json).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
      top_k: 5,
    });
    expect(quota).toBe(expectedQuota(CLAUDE, AWS, { prompt: 12, completion: 4 }));

    bedrock.configure({ reply: 'a b', usage: { input: 5, output: 2 } });
    const streamed = await spentBy(rig.t, rig.customer, async () => {
      const response = await messages({
        model: CLAUDE,
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      });
      const text = await response.text();
      expect(text).toContain('event: message_start\n');
      expect(text).toContain('"text_delta","text":"a"');
      expect(text).toContain('event: message_stop\n');
    });
    expect(bedrock.verified.at(-1)?.url).toContain('/invoke-with-response-stream');
    expect(bedrock.verified.at(-1)?.json).not.toHaveProperty('stream');
    expect(streamed.quota).toBe(expectedQuota(CLAUDE, AWS, { prompt: 5, completion: 2 }));
  });

  it('ends a stream on a throttlingException frame with an OpenAI error, without the AK/SK', async () => {
    bedrock.configure({
      reply: 'first second',
      streamException: {
        type: 'throttlingException',
        message: `Too many requests for ${IDENTITY.accessKeyId}, secret ${IDENTITY.secretAccessKey}`,
      },
    });
    const response = await fetch(`${rig.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: CLAUDE, stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const text = await response.text();
    expect(text).toContain('"content":"first"');
    const errorLine = text.split('\n').find((line) => line.includes('"error"'));
    expect(JSON.parse(errorLine!.slice('data: '.length))).toMatchObject({
      error: { type: 'throttlingException', code: 'throttlingException' },
    });
    expect(text).not.toContain(IDENTITY.secretAccessKey);
    expect(text).not.toContain(IDENTITY.accessKeyId);
    expect(text).not.toContain('[DONE]');
  });

  it('maps a 4xx and a refused signature to OpenAI errors, and refuses models outside the table', async () => {
    bedrock.configure({ error: { status: 400, message: 'Malformed input request: max_tokens too large' } });
    await expect(
      rig.customer.openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('Malformed input request') },
    });
    bedrock.configure({});

    const wrong = await fetch(`${rig.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-3-opus-20240229', messages: [{ role: 'user', content: 'x' }] }),
    });
    const wrongText = await wrong.text();
    expect(wrongText).toContain('signature we calculated does not match');
    expect(wrongText).not.toContain('theWrongSecretAccessKey');

    const unknown = await fetch(`${rig.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-9', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 'model_not_supported' } });
  });

  it('reports a failed channel test with the region it went to, the AK/SK taken out', async () => {
    bedrock.configure({
      error: {
        status: 400,
        message: `No access in ${IDENTITY.region} for ${IDENTITY.accessKeyId} (${IDENTITY.secretAccessKey})`,
      },
    });
    const answer = await rig.root.get<{ success: boolean; message: string }>(
      `/api/channel/test/${rig.channelId}?model=${LLAMA}`,
    );
    bedrock.configure({});
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toContain(`No access in ${IDENTITY.region} for [redacted]`);
    expect(answer.text).not.toContain(IDENTITY.accessKeyId);
    expect(answer.text).not.toContain(IDENTITY.secretAccessKey);
  });

  it('tests the channel through the console', async () => {
    bedrock.configure({ reply: 'claude here' });
    const answer = await rig.root.get<{ success: boolean; message: string }>(
      `/api/channel/test/${rig.channelId}?model=${LLAMA}`,
    );
    expect(answer.body).toMatchObject({ success: true });
    expect(bedrock.verified.at(-1)?.url).toContain('meta.llama3-8b-instruct');
  });
});
