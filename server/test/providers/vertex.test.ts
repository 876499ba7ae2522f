import { describe, expect, it } from 'vitest';
import { HttpFake } from '../fakes/http-fake';
import { FakeVertex, TestServiceAccount } from '../fakes/vertex';
import { providerRig } from './provider-rig';
import { expectedQuota, spentBy } from './quota-check';

const VERTEX = 42;
const PROJECT = 'switchyard-test';
const REGION = 'us-east5';
const GEMINI = 'gemini-1.5-pro-002';
const CLAUDE = 'claude-3-5-sonnet-v2@20241022';

const account = new TestServiceAccount(PROJECT);
/** A PEM line of the private key, to look for in what clients and admins see. */
const PRIVATE_KEY_LINE = account.privateKey.split('\n')[3] ?? '';

describe('Vertex AI channels (service-account token exchange, Gemini and Claude)', () => {
  const vertex = new FakeVertex(account, PROJECT, REGION);
  const adcFor = (url: string) => account.adc(`${url}/token`);
  const rig = providerRig({
    fake: async () => {
      const fake = await new HttpFake(vertex.handler).start();
      vertex.url = fake.url;
      return fake;
    },
    channels: [],
    customer: 'vertex-user',
  });
  const modelCalls = () => vertex.modelCalls(rig.fake.requests);

  const createVertexChannel = async (models: string) => {
    const response = await rig.root.post<{ success: boolean; message: string; data: { ids: number[] } }>(
      '/api/channel/',
      {
        name: 'vertex',
        type: VERTEX,
        key: '',
        base_url: rig.fake.url,
        models,
        group: 'default',
        config: JSON.stringify({
          region: REGION,
          vertex_ai_project_id: PROJECT,
          vertex_ai_adc: adcFor(rig.fake.url),
        }),
      },
    );
    expect(response.body).toMatchObject({ success: true });
    return response.body.data.ids[0]!;
  };

  it('refuses a channel without its required settings, clearly', async () => {
    const refused = await rig.root.post<{ success: boolean; message: string }>('/api/channel/', {
      name: 'vertex-incomplete',
      type: VERTEX,
      key: '',
      models: GEMINI,
      group: 'default',
      config: JSON.stringify({ region: REGION, vertex_ai_adc: adcFor(rig.fake.url) }),
    });
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body.message).toContain('vertex_ai_project_id');
    const badKey = await rig.root.post<{ success: boolean; message: string }>('/api/channel/', {
      name: 'vertex-bad-adc',
      type: VERTEX,
      models: GEMINI,
      group: 'default',
      config: JSON.stringify({ region: REGION, vertex_ai_project_id: PROJECT, vertex_ai_adc: 'not json' }),
    });
    expect(badKey.body).toMatchObject({ success: false });
    expect(badKey.body.message).toContain('service account key');
  });

  it('exchanges one token for several calls, then answers Gemini and bills its usageMetadata', async () => {
    await createVertexChannel(`${GEMINI},${CLAUDE}`);
    vertex.configure({ reply: 'Hola', usage: { input: 14, output: 6 } });
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      for (let i = 0; i < 3; i += 1) {
        const answer = await rig.customer.openai.chat.completions.create({
          model: GEMINI,
          messages: [{ role: 'user', content: 'hi' }],
        });
        expect(answer.choices[0]?.message.content).toBe('Hola');
      }
    });
    expect(vertex.exchanges).toBe(1);
    const upstream = modelCalls().at(-1)!;
    expect(upstream.url).toBe(
      `/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/${GEMINI}:generateContent`,
    );
    expect(upstream.json).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(quota).toBe(3 * expectedQuota(GEMINI, VERTEX, { prompt: 14, completion: 6 }));
    expect(log).toMatchObject({ prompt_tokens: 14, completion_tokens: 6 });
  });

  it('streams Gemini over SSE with the same token', async () => {
    vertex.configure({ reply: 'uno dos', usage: { input: 8, output: 2 } });
    const pieces: string[] = [];
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'count' }],
        stream: true,
      });
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    });
    expect(pieces.join('')).toBe('uno dos');
    expect(modelCalls().at(-1)?.url).toContain(`:streamGenerateContent?alt=sse`);
    expect(vertex.exchanges).toBe(1);
    expect(quota).toBe(expectedQuota(GEMINI, VERTEX, { prompt: 8, completion: 2 }));
  });

  it('sends Claude to rawPredict and streamRawPredict in the Vertex envelope', async () => {
    vertex.configure({ reply: 'Claude on Vertex', usage: { input: 20, output: 5 } });
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await rig.customer.openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(answer.choices[0]?.message.content).toBe('Claude on Vertex');
    });
    const upstream = modelCalls().at(-1)!;
    expect(upstream.url).toBe(
      `/v1/projects/${PROJECT}/locations/${REGION}/publishers/anthropic/models/${CLAUDE}:rawPredict`,
    );
    expect(upstream.json).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      max_tokens: 4096,
    });
    expect(quota).toBe(expectedQuota(CLAUDE, VERTEX, { prompt: 20, completion: 5 }));

    const pieces: string[] = [];
    const streamed = await spentBy(rig.t, rig.customer, async () => {
      const stream = await rig.customer.openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '');
    });
    expect(pieces.join('')).toBe('Claude on Vertex');
    expect(modelCalls().at(-1)?.url).toContain(':streamRawPredict');
    expect(modelCalls().at(-1)?.json).toMatchObject({ stream: true });
    expect(streamed.quota).toBe(expectedQuota(CLAUDE, VERTEX, { prompt: 20, completion: 5 }));
    expect(vertex.exchanges).toBe(1);
  });

  it('passes /v1/messages through to Claude on Vertex', async () => {
    vertex.configure({ reply: 'native', usage: { input: 7, output: 1 } });
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const response = await fetch(`${rig.t.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: {
          'x-api-key': rig.customer.token.key,
          'anthropic-version': '2023-06-01',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ model: CLAUDE, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 'msg_vrtx_01Fake', type: 'message' });
    });
    expect(modelCalls().at(-1)?.json).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(quota).toBe(expectedQuota(CLAUDE, VERTEX, { prompt: 7, completion: 1 }));
  });

  it('maps a Vertex 4xx to an OpenAI error and never shows the key file', async () => {
    vertex.configure({
      error: {
        status: 400,
        message: `Invalid argument for ${account.clientEmail}`,
        status_text: 'INVALID_ARGUMENT',
      },
    });
    const response = await fetch(`${rig.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: GEMINI, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      error: { message: expect.stringContaining('Invalid argument') },
    });
    expect(text).not.toContain(PRIVATE_KEY_LINE);
    vertex.configure({});
  });

  it('refuses a key file Google does not accept, without quoting it', async () => {
    const other = new TestServiceAccount(PROJECT);
    const response = await rig.root.post<{ success: boolean; data: { ids: number[] } }>('/api/channel/', {
      name: 'vertex-foreign-key',
      type: VERTEX,
      base_url: rig.fake.url,
      models: 'gemini-2.0-flash-001',
      group: 'default',
      config: JSON.stringify({
        region: REGION,
        vertex_ai_project_id: PROJECT,
        vertex_ai_adc: adcFor(rig.fake.url).replace(
          JSON.stringify(account.privateKey),
          JSON.stringify(other.privateKey),
        ),
      }),
    });
    const id = response.body.data.ids[0]!;
    const test = await rig.root.get<{ success: boolean; message: string }>(`/api/channel/test/${id}`);
    expect(test.body.success).toBe(false);
    expect(test.body.message).toContain('Google access token');
    expect(test.body.message).not.toContain(other.privateKey.split('\n')[3]);
  });

  it('tests the channel and hides the key file from admins', async () => {
    vertex.configure({ reply: 'gemini here' });
    const id = await createVertexChannel(GEMINI);
    const test = await rig.root.get<{ success: boolean }>(`/api/channel/test/${id}`);
    expect(test.body).toMatchObject({ success: true });

    const admin = await rig.t.user('vertex-admin', { role: 'admin' });
    const seen = await admin.get<{ data: { key: string; config: string } }>(`/api/channel/${id}`);
    expect(seen.text).not.toContain(PRIVATE_KEY_LINE);
    expect(JSON.parse(seen.body.data.config)).toMatchObject({
      region: REGION,
      vertex_ai_project_id: PROJECT,
      vertex_ai_adc: '',
    });
    // The admin's form sends the key file back empty: it is kept, not erased.
    const saved = await admin.put<{ success: boolean }>('/api/channel/', {
      id,
      name: 'vertex-renamed',
      config: seen.body.data.config,
    });
    expect(saved.body).toMatchObject({ success: true });
    expect((await rig.root.get<{ success: boolean }>(`/api/channel/test/${id}`)).body.success).toBe(true);
    // Moving it to another project takes a new key file.
    const moved = await admin.put<{ success: boolean; message: string }>('/api/channel/', {
      id,
      config: JSON.stringify({ ...JSON.parse(seen.body.data.config), vertex_ai_project_id: 'elsewhere' }),
    });
    expect(moved.body).toMatchObject({ success: false });
  });
});
