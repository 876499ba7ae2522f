import { describe, expect, it } from 'vitest';
import { HttpFake, sendJson } from '../fakes/http-fake';
import { openAiHandler } from '../fakes/openai';
import { createChannel } from '../relay-setup';
import { providerRig } from './provider-rig';

interface Envelope {
  success: boolean;
  message: string;
  balance?: number;
}

/** DeepSeek's and SiliconFlow's billing endpoints as they answer (one-api-latest-channels §4.2). */
function billingHandler(state: { deepSeek: unknown; siliconFlow: unknown }) {
  return (
    request: { url: string; headers: Record<string, unknown> },
    res: Parameters<typeof sendJson>[0],
  ) => {
    if (request.url === '/user/balance') return sendJson(res, 200, state.deepSeek);
    if (request.url === '/v1/user/info') return sendJson(res, 200, state.siliconFlow);
    return sendJson(res, 404, { error: { message: 'no such path' } });
  };
}

describe('DeepSeek and SiliconFlow balances', () => {
  const state = {
    deepSeek: {
      is_available: true,
      balance_infos: [
        { currency: 'USD', total_balance: '3.00', granted_balance: '0.00', topped_up_balance: '3.00' },
        { currency: 'CNY', total_balance: '110.25', granted_balance: '10.00', topped_up_balance: '100.25' },
      ],
    } as unknown,
    siliconFlow: {
      code: 20000,
      message: 'OK',
      status: true,
      data: { id: 'u1', balance: '0.88', chargeBalance: '41.00', totalBalance: '41.88' },
    } as unknown,
  };
  const rig = providerRig({
    fake: () => new HttpFake(billingHandler(state) as never).start(),
    customer: 'laterbal',
  });

  const balanceOf = async (id: number) =>
    (await rig.root.get<Envelope>(`/api/channel/update_balance/${id}`)).body;

  it("reads DeepSeek's yuan balance and stores it", async () => {
    // A base URL given SDK-style (with /v1) still reaches the billing endpoint beside the API.
    const id = await createChannel(rig.root, {
      type: 36,
      base_url: `${rig.fake.url}/v1`,
      key: 'sk-deepseek-bal',
      models: 'deepseek-chat',
    });
    expect(await balanceOf(id)).toMatchObject({ success: true, balance: 110.25 });
    expect(rig.fake.last()).toMatchObject({
      method: 'GET',
      url: '/user/balance',
      headers: { authorization: 'Bearer sk-deepseek-bal' },
    });
    const row = await rig.t.db.kysely
      .selectFrom('channels')
      .select('balance')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(Number(row?.balance)).toBe(110.25);

    state.deepSeek = { is_available: true, balance_infos: [{ currency: 'USD', total_balance: '3.00' }] };
    const refused = await balanceOf(id);
    expect(refused).toMatchObject({ success: false });
    expect(refused.message).toMatch(/CNY/);
  });

  it("reads SiliconFlow's total balance, and words its refusals without the key", async () => {
    const id = await createChannel(rig.root, {
      type: 44,
      base_url: rig.fake.url,
      key: 'sk-silicon-bal',
      models: 'Qwen/Qwen2-7B-Instruct',
    });
    expect(await balanceOf(id)).toMatchObject({ success: true, balance: 41.88 });
    expect(rig.fake.last()).toMatchObject({
      url: '/v1/user/info',
      headers: { authorization: 'Bearer sk-silicon-bal' },
    });

    state.siliconFlow = { code: 40001, message: 'Invalid token sk-silicon-bal', status: false, data: null };
    const refused = await balanceOf(id);
    expect(refused).toMatchObject({ success: false });
    expect(refused.message).toMatch(/40001/);
    expect(refused.message).not.toContain('sk-silicon-bal');
  });

  it('still refuses the balance of the later types one-api cannot read', async () => {
    const id = await createChannel(rig.root, { type: 45, base_url: rig.fake.url, models: 'grok-beta' });
    const refused = await balanceOf(id);
    expect(refused).toMatchObject({ success: false });
    expect(refused.message).toMatch(/not supported for xAI/);
  });
});

describe('Proxy channels (type 43)', () => {
  const rig = providerRig({
    fake: () => new HttpFake(openAiHandler({ reply: 'should not be reached' })).start(),
    customer: 'laterproxy',
  });

  it('are created and edited without models, and kept as they are', async () => {
    const id = await createChannel(rig.root, {
      type: 43,
      name: 'pass-through',
      base_url: rig.fake.url,
      key: 'Bearer sk-up',
      models: '',
    });
    const row = await rig.root.get<{ success: boolean; data: { type: number; models: string } }>(
      `/api/channel/${id}`,
    );
    expect(row.body.data).toMatchObject({ type: 43, models: '' });
    const edited = await rig.root.put<Envelope>('/api/channel/', {
      id,
      type: 43,
      name: 'pass-through 2',
      base_url: rig.fake.url,
      models: '',
      group: 'default',
    });
    expect(edited.body.success).toBe(true);
    // Any other type still needs a model.
    const refused = await rig.root.put<Envelope>('/api/channel/', { id, type: 50, models: '' });
    expect(refused.body).toMatchObject({ success: false });
  });

  it('are never picked for /v1 calls, even when they list the model', async () => {
    await createChannel(rig.root, {
      type: 43,
      base_url: rig.fake.url,
      key: 'Bearer sk-up',
      models: 'gpt-4o',
    });
    const received = rig.fake.requests.length;
    const failure = await rig.customer.openai.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => undefined,
        (error: { status?: number; error?: { code?: string } }) => error,
      );
    expect(failure?.status).toBe(404);
    expect(failure?.error?.code).toBe('model_not_found');
    expect(rig.fake.requests.length).toBe(received);
  });

  it("answers one-api's unbilled /v1/oneapi/proxy route with a clear refusal, whoever asks", async () => {
    const id = await createChannel(rig.root, {
      type: 43,
      base_url: rig.fake.url,
      key: 'Bearer sk-up',
      models: '',
    });
    const received = rig.fake.requests.length;
    const keys = [`sk-${rig.customer.token.key}`, 'sk-not-a-key'];
    for (const key of keys) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(`${rig.t.baseUrl}/v1/oneapi/proxy/${id}/v1/files?limit=2`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect(response.status).toBe(501);
        const body = (await response.json()) as { error: { message: string; code: string } };
        expect(body.error.code).toBe('proxy_route_not_served');
        expect(body.error.message).toMatch(/not served/);
      }
    }
    expect(rig.fake.requests.length).toBe(received);
  });
});
