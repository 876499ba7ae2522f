import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHandler, HttpFake, sendJson } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, logCapture, startTestApp, type TestApp } from './harness';
import { type ChannelSpec, type Customer, createChannel, createCustomer } from './relay-setup';

const ROOT_KEY = 'sk-root-only-9f8e7d6c5b4a';

interface TestAnswer {
  success: boolean;
  message: string;
  code?: string;
  params?: Record<string, string>;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('channel keys', () => {
  const logs = logCapture();
  let t: TestApp;
  let root: Client;
  let admin: Client;
  let customer: Customer;
  const fakes: HttpFake[] = [];
  const fake = async (handler: FakeHandler) => {
    const started = await new HttpFake(handler).start();
    fakes.push(started);
    return started;
  };

  beforeAll(async () => {
    t = await startTestApp({ logger: logs.logger });
    root = await t.root();
    admin = await t.user('keyadmin', { role: 'admin' });
    customer = await createCustomer(t, 'key-customer');
  });
  afterAll(async () => {
    await t?.close();
    for (const started of fakes) await started.close();
  });

  const testChannel = (client: Client, id: number) =>
    client.get<TestAnswer>(`/api/channel/test/${id}`).then((answer) => answer.body);
  const storedRow = (id: number) =>
    t.db.kysely.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** One channel at a time serves the customer's model: each scenario makes its own and removes it. */
  async function withChannel(spec: ChannelSpec, run: (id: number) => Promise<void>): Promise<void> {
    const id = await createChannel(root, spec);
    try {
      await run(id);
    } finally {
      await root.delete(`/api/channel/${id}`);
    }
  }

  /** The customer's chat call, as the client receives it. */
  async function relayAnswer(model: string): Promise<{ status: number; text: string; message: string }> {
    const response = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await response.text();
    const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '';
    return { status: response.status, text, message };
  }

  describe('who may change where a key is sent', () => {
    it('refuses an administrator who moves a channel whose key it cannot read, and sends nothing there', async () => {
      const upstream = await fake(openAiHandler({ reply: 'pong' }));
      const listener = await fake(openAiHandler({ reply: 'caught' }));
      const id = await createChannel(root, { name: 'guarded', key: ROOT_KEY, base_url: upstream.url });

      const attempts: Array<[string, Record<string, unknown>]> = [
        ['base_url', { base_url: listener.url }],
        ['type', { type: 14 }],
        ['config.region', { config: '{"region":"somewhere-else"}' }],
        ['other', { other: 'v9' }],
      ];
      for (const [field, change] of attempts) {
        const answer = await admin.put('/api/channel/', { id, ...change });
        expect(answer.body).toMatchObject({
          success: false,
          code: 'channel_destination_needs_key',
          params: { field },
        });
        expect(answer.body.message).toMatch(/Only root can change where a channel sends its credentials/);
      }
      const zh = await admin.request(
        'PUT',
        '/api/channel/',
        { id, base_url: listener.url },
        { 'accept-language': 'zh-CN' },
      );
      expect(zh.body.message).toMatch(/只有超级管理员可以在保留原凭据/);
      expect(await storedRow(id)).toMatchObject({ base_url: upstream.url, type: 1, key: ROOT_KEY });

      // The whole form sent back unchanged (the key box left empty) is no move: it is saved.
      const form = (await admin.get<EnvelopeBody<Record<string, unknown>>>(`/api/channel/${id}`)).body.data!;
      expect(form.key).toBe('');
      const saved = await admin.put('/api/channel/', { ...form, weight: 3 });
      expect(saved.body.success).toBe(true);

      expect(await testChannel(admin, id)).toMatchObject({ success: true, message: 'pong' });
      expect(listener.requests).toHaveLength(0);
      expect(upstream.last().headers.authorization).toBe(`Bearer ${ROOT_KEY}`);
    });

    it('lets an administrator move a channel along with a key of its own, and root move any', async () => {
      const upstream = await fake(openAiHandler({ reply: 'pong' }));
      const listener = await fake(openAiHandler({ reply: 'moved' }));
      const id = await createChannel(root, { name: 'rekeyed', key: ROOT_KEY, base_url: upstream.url });

      const rekeyed = await admin.put('/api/channel/', { id, base_url: listener.url, key: 'sk-admins-own' });
      expect(rekeyed.body.success).toBe(true);
      expect(await testChannel(admin, id)).toMatchObject({ success: true, message: 'moved' });
      expect(listener.last().headers.authorization).toBe('Bearer sk-admins-own');

      const rootsOwn = await createChannel(root, { name: 'roots', key: ROOT_KEY, base_url: upstream.url });
      const moved = await root.put('/api/channel/', { id: rootsOwn, base_url: listener.url, other: 'v2' });
      expect(moved.body.success).toBe(true);
      expect(await testChannel(root, rootsOwn)).toMatchObject({ success: true });
      expect(listener.last().headers.authorization).toBe(`Bearer ${ROOT_KEY}`);
    });
  });

  describe('channel tests', () => {
    it('fail on a 200 answer that is not a chat completion of the model asked', async () => {
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const answers: Array<[string, FakeHandler]> = [
        [
          'not JSON',
          (_request, res) => {
            res.writeHead(200, { 'content-type': 'image/png' });
            res.end(png);
          },
        ],
        ['no "choices"', (_request, res) => sendJson(res, 200, { object: 'list', data: [] })],
        [
          'with model claude-3-haiku, not gpt-4o',
          (_request, res) =>
            sendJson(res, 200, {
              object: 'chat.completion',
              model: 'claude-3-haiku',
              choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
            }),
        ],
      ];
      for (const [problem, handler] of answers) {
        const upstream = await fake(handler);
        await withChannel({ name: 'odd', base_url: upstream.url, models: 'gpt-4o' }, async (id) => {
          const answer = await testChannel(root, id);
          expect(answer.success, problem).toBe(false);
          expect(answer.message).toContain(problem);
        });
      }
      // A dated variant of the model asked is that model, and so is the model an alias points to.
      const answering = (model: string) =>
        fake((_request, res) =>
          sendJson(res, 200, {
            object: 'chat.completion',
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'hey' }, finish_reason: 'stop' }],
          }),
        );
      const variants: Array<[asked: string, answered: string]> = [
        ['gpt-4o', 'gpt-4o-2024-08-06'],
        ['gpt-4-turbo-preview', 'gpt-4-0125-preview'],
        ['gpt-3.5-turbo', 'gpt-35-turbo'],
      ];
      for (const [asked, answered] of variants) {
        const upstream = await answering(answered);
        await withChannel({ name: 'variant', base_url: upstream.url, models: asked }, async (id) => {
          expect(await testChannel(root, id), answered).toMatchObject({ success: true, message: 'hey' });
        });
      }
    });
  });

  describe('upstream error texts', () => {
    const leaks: Array<{
      provider: string;
      spec: Omit<ChannelSpec, 'base_url'>;
      model: string;
      secrets: string[];
      handler: FakeHandler;
    }> = [
      {
        provider: 'OpenAI, quoting the key as a bearer token',
        spec: { type: 1, key: 'sk-upstream-51f0c2e8a9', models: 'gpt-4o' },
        model: 'gpt-4o',
        secrets: ['sk-upstream-51f0c2e8a9', '51f0c2e8a9'],
        handler: (_request, res) =>
          sendJson(res, 401, {
            error: {
              message: 'Incorrect API key provided: Bearer sk-upstream-51f0c2e8a9. Check your key.',
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          }),
      },
      {
        provider: 'an OpenAI-compatible proxy, quoting a key of no known shape',
        spec: { type: 8, key: 'zebra-plain-4242', models: 'gpt-4o' },
        model: 'gpt-4o',
        secrets: ['zebra-plain-4242'],
        handler: (_request, res) =>
          sendJson(res, 401, { error: { message: 'unknown key zebra-plain-4242', type: 'auth' } }),
      },
      {
        provider: 'Anthropic, in its error body',
        spec: { type: 14, key: 'sk-ant-api03-leakyleaky', models: 'claude-3-haiku-20240307' },
        model: 'claude-3-haiku-20240307',
        secrets: ['sk-ant-api03-leakyleaky', 'leakyleaky'],
        handler: (_request, res) =>
          sendJson(res, 401, {
            type: 'error',
            error: { type: 'authentication_error', message: 'invalid x-api-key: sk-ant-api03-leakyleaky' },
          }),
      },
      {
        provider: 'Anthropic, behind a proxy answering plain text',
        spec: { type: 14, key: 'sk-ant-api03-plainproxy', models: 'claude-3-haiku-20240307' },
        model: 'claude-3-haiku-20240307',
        secrets: ['sk-ant-api03-plainproxy', 'plainproxy'],
        handler: (_request, res) => {
          res.writeHead(401, { 'content-type': 'text/plain' });
          res.end('Unauthorized: x-api-key sk-ant-api03-plainproxy is not known here');
        },
      },
      {
        provider: 'Tencent Hunyuan, quoting each part of AppId|SecretId|SecretKey',
        spec: {
          type: 23,
          key: '1250099887|AKIDpartOne777|tencent-part-three',
          models: 'hunyuan-standard',
        },
        model: 'hunyuan-standard',
        secrets: ['1250099887', 'AKIDpartOne777', 'tencent-part-three'],
        handler: (_request, res) =>
          sendJson(res, 200, {
            Response: {
              Error: {
                Code: 'AuthFailure.SecretIdNotFound',
                Message: 'app 1250099887: SecretId AKIDpartOne777 (signed with tencent-part-three) not found',
              },
              RequestId: 'req-1',
            },
          }),
      },
    ];

    for (const leak of leaks) {
      it(`never hand a key to the relay client or the channel test: ${leak.provider}`, async () => {
        const upstream = await fake(leak.handler);
        await withChannel({ name: 'leaky', base_url: upstream.url, ...leak.spec }, async (id) => {
          const relayed = await relayAnswer(leak.model);
          expect(relayed.status).toBeGreaterThanOrEqual(400);
          const tested = await testChannel(root, id);
          expect(tested.success).toBe(false);
          for (const secret of leak.secrets) {
            expect(relayed.text).not.toContain(secret);
            expect(tested.message).not.toContain(secret);
          }
          expect(relayed.message).not.toMatch(/^\s*\(request id/);
          expect(logs.text()).not.toContain(leak.spec.key);
        });
        for (const secret of leak.secrets) expect(logs.text()).not.toContain(secret);
      });
    }

    it('says what the provider said, its key taken out', async () => {
      const upstream = await fake(leaks[0]!.handler);
      await withChannel({ name: 'said', base_url: upstream.url, ...leaks[0]!.spec }, async () => {
        const relayed = await relayAnswer('gpt-4o');
        expect(relayed.message).toMatch(
          /^Incorrect API key provided: Bearer \[redacted\]\. Check your key\./,
        );
      });
    });

    it('tell a relay client only that the upstream could not be reached; the channel test and the log say how', async () => {
      const port = await closedPort();
      const key = 'sk-unreachable-33aa44bb55';
      await withChannel(
        { name: 'closed', base_url: `http://127.0.0.1:${port}`, key, models: 'gpt-4o' },
        async (id) => {
          const relayed = await relayAnswer('gpt-4o');
          expect(relayed.status).toBe(502);
          expect(relayed.message).toMatch(/^The upstream channel could not be reached/);
          expect(relayed.text).not.toContain('ECONNREFUSED');
          expect(relayed.text).not.toContain(String(port));

          const tested = await testChannel(admin, id);
          expect(tested.success).toBe(false);
          expect(tested.message).toContain('ECONNREFUSED');
          expect(tested.message).toContain(`127.0.0.1:${port}`);
          expect(tested.message).not.toContain(key);
          // Coded like every refusal, and said in the caller's language around the network's own words.
          expect(tested).toMatchObject({
            code: 'channel_test_unreachable',
            params: { reason: expect.stringContaining('ECONNREFUSED') },
          });
          expect(tested.message).toMatch(/^Could not reach the upstream: .*ECONNREFUSED/);
          const zh = await admin.get<TestAnswer>(`/api/channel/test/${id}`, { 'accept-language': 'zh-CN' });
          expect(zh.body.message).toMatch(/^无法连接上游：.*ECONNREFUSED/);
          expect(zh.body.code).toBe('channel_test_unreachable');
        },
      );
      expect(logs.text()).toContain('ECONNREFUSED');
      expect(logs.text()).not.toContain(key);
      expect(logs.text()).not.toContain(ROOT_KEY);
    });
  });
});
