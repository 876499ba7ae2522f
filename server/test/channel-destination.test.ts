import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeBedrock } from './fakes/bedrock';
import { HttpFake } from './fakes/http-fake';
import { FakeVertex, TestServiceAccount } from './fakes/vertex';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { createChannel } from './relay-setup';

/**
 * "Whoever cannot read a channel's credentials cannot send them elsewhere", for every credential a
 * type uses, wherever it is kept: an administrator (who cannot read them) tries to point root's
 * AWS and Vertex AI channels at a listener of its own, and the listener must never hear from them.
 */
const ROOT_AK = 'AKIAROOTROOTROOT1234';
const ROOT_SK = 'root-secret-access-key-0f9e8d7c';
const REGION = 'us-west-2';
const BEDROCK_MODEL = 'claude-3-haiku-20240307';
const PROJECT = 'roots-project';
const VERTEX_REGION = 'us-east5';
const account = new TestServiceAccount(PROJECT);

interface Answer {
  success: boolean;
  message: string;
  code?: string;
  params?: Record<string, unknown>;
}

/** A TCP listener that counts connections: a host built from a region must never reach it. */
async function connectionCounter(): Promise<{
  port: number;
  count: () => number;
  close: () => Promise<void>;
}> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    count: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('who may change where a channel sends its credentials', () => {
  let t: TestApp;
  let root: Client;
  let admin: Client;
  let listener: HttpFake;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  const bedrock = new FakeBedrock({ region: REGION, accessKeyId: ROOT_AK, secretAccessKey: ROOT_SK });
  const vertex = new FakeVertex(account, PROJECT, VERTEX_REGION);
  let bedrockFake: HttpFake;
  let vertexFake: HttpFake;

  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
    admin = await t.user('destadmin', { role: 'admin' });
    listener = await new HttpFake((_request, res) => {
      res.writeHead(404);
      res.end();
    }).start();
    counter = await connectionCounter();
    bedrockFake = await new HttpFake(bedrock.handler).start();
    vertexFake = await new HttpFake(vertex.handler).start();
    vertex.url = vertexFake.url;
  });
  // Each scenario starts with a listener that has heard nothing.
  beforeEach(() => {
    listener.requests.splice(0);
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of [listener, bedrockFake, vertexFake]) await fake?.close();
    await counter?.close();
  });

  const put = (client: Client, body: Record<string, unknown>) =>
    client.put<Answer>('/api/channel/', body).then((answer) => answer.body);
  const testChannel = (client: Client, id: number) =>
    client.get<Answer>(`/api/channel/test/${id}`).then((answer) => answer.body);
  const storedRow = (id: number) =>
    t.db.kysely.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Each change of an administrator's is refused, naming the field that would steer root's credentials. */
  const expectRefusedFor = async (
    id: number,
    attempts: Array<[field: string, change: Record<string, unknown>]>,
  ) => {
    for (const [field, change] of attempts) {
      const answer = await put(admin, { id, ...change });
      expect(answer, JSON.stringify(change)).toMatchObject({
        success: false,
        code: 'channel_destination_needs_key',
        params: { field },
      });
    }
  };
  /** Everything the listener received, headers and bodies. */
  const heard = () => JSON.stringify(listener.requests);

  const bedrockConfig = (overrides: Record<string, string> = {}) =>
    JSON.stringify({ region: REGION, ak: ROOT_AK, sk: ROOT_SK, ...overrides });
  /** Root's AWS Bedrock channel, signing with root's access key pair. */
  const rootsBedrockChannel = (name: string) =>
    createChannel(root, {
      name,
      type: 33,
      key: '',
      base_url: bedrockFake.url,
      models: BEDROCK_MODEL,
      config: bedrockConfig(),
    });
  const vertexConfig = (overrides: Record<string, string> = {}) =>
    JSON.stringify({
      region: VERTEX_REGION,
      vertex_ai_project_id: PROJECT,
      vertex_ai_adc: account.adc(`${vertexFake.url}/token`),
      ...overrides,
    });

  it("refuses an administrator who points root's AWS Bedrock channel elsewhere with a key the type never reads", async () => {
    const id = await rootsBedrockChannel('roots-bedrock');
    const stored = await storedRow(id);
    const attempts: Array<[field: string, change: Record<string, unknown>]> = [
      ['base_url', { key: 'not-a-credential', base_url: listener.url }],
      [
        'base_url',
        { key: 'not-a-credential', base_url: listener.url, config: bedrockConfig({ ak: '', sk: '' }) },
      ],
      // One credential anew, the other left to be the stored one: still root's secret that signs.
      ['base_url', { base_url: listener.url, config: bedrockConfig({ ak: 'AKIAADMINADMINADMIN1', sk: '' }) }],
      [
        'config.region',
        { key: 'not-a-credential', config: bedrockConfig({ region: 'eu-west-1', ak: '', sk: '' }) },
      ],
    ];
    await expectRefusedFor(id, attempts);
    // A region that would put another host in the URL is no region, for root too.
    for (const client of [admin, root]) {
      const answer = await put(client, {
        id,
        key: 'not-a-credential',
        config: bedrockConfig({ region: `x@127.0.0.1:${counter.port}/#` }),
      });
      expect(answer).toMatchObject({ success: false, code: 'channel_config_region_invalid' });
    }
    expect(await storedRow(id)).toEqual(stored);

    const tested = await testChannel(admin, id);
    expect(tested.success).toBe(true);
    expect(bedrock.verified.length).toBeGreaterThan(0);
    expect(listener.requests).toHaveLength(0);
    expect(counter.count()).toBe(0);

    // With every credential of its own, the administrator may move it: only its own key travels.
    const own = await put(admin, {
      id,
      base_url: listener.url,
      config: bedrockConfig({ ak: 'AKIAADMINADMINADMIN1', sk: 'admins-own-secret' }),
    });
    expect(own.success).toBe(true);
    await testChannel(admin, id);
    expect(listener.requests.length).toBeGreaterThan(0);
    expect(listener.last().headers.authorization).toContain('Credential=AKIAADMINADMINADMIN1/');
    expect(heard()).not.toContain(ROOT_AK);
    expect(heard()).not.toContain(ROOT_SK);
  });

  it("refuses an administrator who points root's Vertex AI channel elsewhere, by base URL, region or project", async () => {
    const id = await createChannel(root, {
      name: 'roots-vertex',
      type: 42,
      key: '',
      base_url: vertexFake.url,
      models: 'gemini-1.5-pro-002',
      config: vertexConfig(),
    });
    const stored = await storedRow(id);
    const attempts: Array<[field: string, change: Record<string, unknown>]> = [
      ['base_url', { key: 'not-a-credential', base_url: listener.url }],
      ['config.region', { key: 'x', config: vertexConfig({ region: 'europe-west4', vertex_ai_adc: '' }) }],
      [
        'config.vertex_ai_project_id',
        { config: vertexConfig({ vertex_ai_project_id: 'other', vertex_ai_adc: '' }) },
      ],
    ];
    await expectRefusedFor(id, attempts);
    const injected = await put(admin, {
      id,
      key: 'not-a-credential',
      config: vertexConfig({ region: `127.0.0.1:${counter.port}/#`, vertex_ai_adc: '' }),
    });
    expect(injected).toMatchObject({ success: false, code: 'channel_config_region_invalid' });
    expect(await storedRow(id)).toEqual(stored);

    const tested = await testChannel(admin, id);
    expect(tested.success).toBe(true);
    expect(vertex.exchanges).toBeGreaterThan(0);
    expect(listener.requests).toHaveLength(0);
    expect(counter.count()).toBe(0);
  });

  it('never builds a host from a stored region that is none (a row written before the check)', async () => {
    const channels: Array<[type: number, models: string, config: (region: string) => string]> = [
      [42, 'gemini-1.5-pro-002', (region) => vertexConfig({ region })],
      [33, BEDROCK_MODEL, (region) => bedrockConfig({ region })],
    ];
    for (const [type, models, config] of channels) {
      const id = await createChannel(root, {
        name: 'old',
        type,
        key: '',
        base_url: '',
        models,
        config: config(REGION),
      });
      const bad = config(`x@127.0.0.1:${counter.port}/#`);
      await t.db.kysely.updateTable('channels').set({ config: bad }).where('id', '=', id).execute();
      const tested = await testChannel(root, id);
      expect(tested.success, String(type)).toBe(false);
      expect(tested.message, String(type)).toContain('region');
    }
    expect(counter.count()).toBe(0);
  });

  it('keeps credentials of the type a channel had hidden after its type changes', async () => {
    const id = await rootsBedrockChannel('retyped');
    // The key it brings is all an OpenAI channel uses: allowed.
    expect(
      await put(admin, { id, type: 1, key: 'sk-admins-own-openai', base_url: listener.url }),
    ).toMatchObject({
      success: true,
    });
    const shown = await admin.get<EnvelopeBody<{ config: string; key: string }>>(`/api/channel/${id}`);
    expect(JSON.stringify(shown.body)).not.toContain(ROOT_AK);
    expect(JSON.stringify(shown.body)).not.toContain(ROOT_SK);
  });

  it('lets an administrator change a setting that steers nowhere (Coze user id), not one that does (Cloudflare account)', async () => {
    const channels: Array<[name: string, type: number, models: string, answer: Record<string, unknown>]> = [
      ['coze', 34, 'bot-1', { success: true }],
      [
        'cloudflare',
        37,
        '@cf/meta/llama-3-8b-instruct',
        { success: false, code: 'channel_destination_needs_key', params: { field: 'config.user_id' } },
      ],
    ];
    for (const [name, type, models, answer] of channels) {
      const config = (userId: string) => JSON.stringify({ user_id: userId });
      const key = `${name}-roots-token`;
      const id = await createChannel(root, {
        name,
        type,
        key,
        base_url: listener.url,
        models,
        config: config('u1'),
      });
      expect(await put(admin, { id, config: config('u2') }), name).toMatchObject(answer);
    }
  });
});
