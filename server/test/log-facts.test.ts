import type { LogEntry } from '@switchyard/contract/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { createChannel, createCustomer } from './relay-setup';

type Logs = EnvelopeBody<LogEntry[]>;

/** Every log line Switchyard writes carries its facts beside the English content; one-api's rows none. */
describe('log facts', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler()).start();
    t = await startTestApp();
    root = await t.root();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const quotaOf = async (id: number) =>
    (await root.get<EnvelopeBody<{ quota: number }>>(`/api/user/${id}`)).body.data!.quota;
  const logsOf = async (username: string, type: number) =>
    (await root.get<Logs>(`/api/log/?username=${username}&type=${type}`)).body.data!;

  it('registration bonuses: new user, invitee and inviter', async () => {
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: '100' });
    await root.put('/api/option/', { key: 'QuotaForInvitee', value: '20' });
    await root.put('/api/option/', { key: 'QuotaForInviter', value: '30' });
    const inviter = await t.user('inviter');
    const affCode = (await inviter.get<EnvelopeBody<string>>('/api/user/aff')).body.data;
    const registered = await t
      .client()
      .post('/api/user/register', { username: 'invitee', password: 'password123', aff_code: affCode });
    expect(registered.body.success).toBe(true);
    const invitee = await t.client();
    await invitee.login('invitee', 'password123');
    const own = (await invitee.get<Logs>('/api/log/self/?type=4')).body.data!;
    expect(own.map((log) => log.facts)).toEqual(
      expect.arrayContaining([
        { kind: 'new_user_bonus', quota: 100 },
        { kind: 'invitee_bonus', quota: 20 },
      ]),
    );
    expect(own.find((log) => log.facts?.kind === 'new_user_bonus')?.content).toBe(
      'New user bonus of $0.000200',
    );
    const inviterLogs = (await inviter.get<Logs>('/api/log/self/?type=4')).body.data!;
    expect(inviterLogs.map((log) => log.facts)).toContainEqual({ kind: 'inviter_bonus', quota: 30 });
    for (const key of ['QuotaForNewUser', 'QuotaForInvitee', 'QuotaForInviter'])
      await root.put('/api/option/', { key, value: '0' });
  });

  it('top-ups by an administrator, with and without a remark, and a quota change', async () => {
    await t.user('carol');
    const carol = (await root.get<EnvelopeBody<Array<{ id: number }>>>('/api/user/search?keyword=carol')).body
      .data![0]!;
    await root.post('/api/topup', { user_id: carol.id, quota: 5000 });
    await root.post('/api/topup', { user_id: carol.id, quota: 700, remark: '  refund for March ' });
    const topUps = await logsOf('carol', 1);
    expect(topUps.map((log) => [log.content, log.facts])).toEqual([
      ['refund for March', { kind: 'top_up', quota: 700, by: 'root', remark: 'refund for March' }],
      ['Top-up of $0.010000 by root', { kind: 'top_up', quota: 5000, by: 'root' }],
    ]);
    const before = await quotaOf(carol.id);
    await root.put('/api/user/', { id: carol.id, quota: 1234 });
    const [change] = await logsOf('carol', 3);
    expect(change?.facts).toEqual({ kind: 'quota_change', from: before, to: 1234, by: 'root' });
    expect(change?.content).toMatch(/^Administrator root changed the quota from \$[\d.]+ to \$0\.002468$/);
  });

  it('redeeming a code', async () => {
    const [key] = (
      await root.post<EnvelopeBody<string[]>>('/api/redemption/', { name: 'f', quota: 777, count: 1 })
    ).body.data!;
    const dave = await t.user('dave');
    expect((await dave.post('/api/user/topup', { key })).body.success).toBe(true);
    const [log] = (await dave.get<Logs>('/api/log/self/?type=1')).body.data!;
    expect(log?.facts).toEqual({ kind: 'redemption', quota: 777 });
  });

  it('consumption, per token, and underpaid when the account cannot pay it all', async () => {
    await createChannel(root, { base_url: fake.url, key: 'sk-channel' });
    const erin = await createCustomer(t, 'erin', { quota: 1000 });
    fake.use(openAiHandler());
    await erin.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await t.app.services.relay.settled();
    // gpt-3.5-turbo: model ratio 0.25, completion ratio 3.
    const [paid] = await logsOf('erin', 2);
    expect(paid?.facts).toEqual({ kind: 'consume', modelRatio: 0.25, groupRatio: 1, completionRatio: 3 });
    expect(paid?.content).toBe('model ratio 0.25 × group ratio 1.00 × completion ratio 3.00');

    // The upstream reports far more than was held: the call is charged what is left of the balance.
    const left = await quotaOf(erin.userId);
    fake.use(openAiHandler({ usage: { prompt_tokens: 40_000, completion_tokens: 0 } }));
    await erin.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await t.app.services.relay.settled();
    const [underpaid] = await logsOf('erin', 2);
    expect(underpaid?.quota).toBe(left);
    expect(underpaid?.facts).toEqual({
      kind: 'consume',
      modelRatio: 0.25,
      groupRatio: 1,
      completionRatio: 3,
      underpaid: { cost: 10_000, charged: left },
    });
    expect(underpaid?.content).toBe(
      `model ratio 0.25 × group ratio 1.00 × completion ratio 3.00 (cost 10000, charged the ${left} left)`,
    );
  });

  it('channel tests, passed and failed', async () => {
    const id = await createChannel(root, { name: 'probe', base_url: fake.url, models: 'gpt-3.5-turbo' });
    fake.use(openAiHandler({ reply: 'pong' }));
    await root.get(`/api/channel/test/${id}/`);
    fake.use(openAiError(401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
    await root.get(`/api/channel/test/${id}/`);
    const [failed, passed] = (await root.get<Logs>(`/api/log/?type=5&channel=${id}`)).body.data!;
    expect(passed?.facts).toEqual({ kind: 'channel_test', channel: 'probe', success: true, message: 'pong' });
    expect(failed?.facts).toMatchObject({ kind: 'channel_test', channel: 'probe', success: false });
    expect(failed?.facts).toMatchObject({ message: expect.stringMatching(/Incorrect API key/) });
    expect(failed?.content).toMatch(/^Channel probe test failed, error: .*Incorrect API key/);
  });

  /** A top-up row as one-api writes it: every column but facts. */
  const oneApiRow = (row: { created_at: number; content: string; quota: number; facts?: string }) => ({
    user_id: 1,
    type: 1,
    username: 'oneapi-user',
    token_name: '',
    model_name: '',
    prompt_tokens: 0,
    completion_tokens: 0,
    channel_id: 0,
    request_id: '',
    elapsed_time: 0,
    is_stream: false,
    system_prompt_reset: false,
    ...row,
  });

  it('a row one-api wrote has no facts and keeps its content; a broken facts text reads as none', async () => {
    await t.db.kysely
      .insertInto('logs')
      .values([
        oneApiRow({ created_at: 1_700_000_000, content: '通过兑换码充值 $1.000000 额度', quota: 500_000 }),
        oneApiRow({
          created_at: 1_700_000_001,
          content: 'hand-edited',
          quota: 1,
          facts: '{"kind":"redemption","quota":"lots"',
        }),
      ])
      .execute();
    const rows = await logsOf('oneapi-user', 1);
    expect(rows.map((log) => [log.content, log.facts])).toEqual([
      ['hand-edited', null],
      ['通过兑换码充值 $1.000000 额度', null],
    ]);
  });
});
