import type { DashboardRow, LogEntry } from '@switchyard/contract/logs';
import type { Token } from '@switchyard/contract/tokens';
import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { createChannel } from './relay-setup';

/**
 * An administrator reads only the users below its role, and its own row: not root's, not another
 * administrator's, in any list, search, log, statistic, dashboard or the audit log. Root reads all.
 */
describe('what an administrator sees of root and of its peers', () => {
  let t: TestApp;
  let root: Client;
  let admin: Client;
  let peer: Client;
  let common: Client;
  let upstream: HttpFake;
  const ids: Record<string, number> = {};

  /** One chat call on the user's own key: one consumption log in its name. */
  async function consume(client: Client, name: string): Promise<void> {
    const self = await client.get<EnvelopeBody<{ id: number }>>('/api/user/self');
    ids[name] = self.body.data!.id;
    await root.post('/api/topup', { user_id: ids[name], quota: 1_000_000 });
    const token = await client.post<EnvelopeBody<Token>>('/api/token/', {
      name: `${name}-key`,
      remain_quota: 1_000_000,
      expired_time: -1,
    });
    const response = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.body.data!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
  }

  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
    upstream = await new HttpFake(openAiHandler({ reply: 'pong' })).start();
    await createChannel(root, { name: 'visible', base_url: upstream.url, models: 'gpt-4o' });
    admin = await t.user('seer', { role: 'admin' });
    peer = await t.user('peer', { role: 'admin' });
    common = await t.user('commoner');
    await consume(root, 'root');
    await consume(admin, 'seer');
    await consume(peer, 'peer');
    await consume(common, 'commoner');
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const data = async <T>(client: Client, path: string): Promise<T> => {
    const answer = await client.get<EnvelopeBody<T>>(path);
    expect(answer.body.success, `${path}: ${answer.body.message}`).toBe(true);
    return answer.body.data as T;
  };
  const usernames = (rows: Array<{ username: string }>) =>
    [...new Set(rows.map((row) => row.username))].sort();
  const consumption = async (client: Client, query: string) =>
    (await data<{ quota: number }>(client, `/api/log/stat?type=2${query}`)).quota;

  it('lists and finds only the users below its role, and itself', async () => {
    expect(usernames(await data<User[]>(admin, '/api/user/'))).toEqual(['commoner', 'seer']);
    expect(usernames(await data<User[]>(admin, '/api/user/?order=quota'))).toEqual(['commoner', 'seer']);
    for (const keyword of ['root', 'peer', String(ids.root), String(ids.peer)]) {
      expect(await data<User[]>(admin, `/api/user/search?keyword=${keyword}`), keyword).toEqual([]);
    }
    expect(usernames(await data<User[]>(admin, '/api/user/search?keyword=commoner'))).toEqual(['commoner']);
    expect(usernames(await data<User[]>(root, '/api/user/'))).toEqual(['commoner', 'peer', 'root', 'seer']);
  });

  it("reads no log, statistic or dashboard of root's or a peer's", async () => {
    for (const name of ['root', 'peer']) {
      expect(await data<LogEntry[]>(admin, `/api/log/?username=${name}`), name).toEqual([]);
      expect(await data<LogEntry[]>(admin, `/api/log/search?keyword=${name}`), name).toEqual([]);
      expect(await consumption(admin, `&username=${name}`), name).toBe(0);
      const dashboard = await admin.get(`/api/user/dashboard?username=${name}`);
      expect(dashboard.body, name).toMatchObject({ success: false, code: 'user_not_found' });
    }
    const seen = await data<LogEntry[]>(admin, '/api/log/');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((log) => log.user_id !== ids.root && log.user_id !== ids.peer)).toBe(true);
    expect(usernames(seen.filter((log) => log.type === 2))).toEqual(['commoner', 'seer']);

    // Its totals are those of the users it sees, exactly.
    const own = await consumption(root, '&username=seer');
    const below = await consumption(root, '&username=commoner');
    expect(own).toBeGreaterThan(0);
    expect(await consumption(admin, '')).toBe(own + below);
    expect(await consumption(root, '')).toBeGreaterThan(own + below);
    const everyone = await data<DashboardRow[]>(admin, '/api/user/dashboard?scope=all');
    expect(everyone.reduce((sum, row) => sum + row.Quota, 0)).toBe(own + below);
    expect(everyone.reduce((sum, row) => sum + row.RequestCount, 0)).toBe(2);
    const commoner = await data<DashboardRow[]>(admin, '/api/user/dashboard?username=commoner');
    expect(commoner.reduce((sum, row) => sum + row.Quota, 0)).toBe(below);

    // Root reads everyone's.
    expect(await data<LogEntry[]>(root, '/api/log/?username=peer')).not.toEqual([]);
    const rootsView = await data<DashboardRow[]>(root, '/api/user/dashboard?scope=all');
    expect(rootsView.reduce((sum, row) => sum + row.RequestCount, 0)).toBe(4);
  });

  it("reads no audit entry of root's or a peer's", async () => {
    const entries = await data<Array<{ actor_id: number; actor_name: string }>>(admin, '/api/audit/');
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.actor_id !== ids.root && entry.actor_id !== ids.peer)).toBe(true);
    expect(await data<unknown[]>(admin, '/api/audit/?actor=peer')).toEqual([]);
    expect(await data<unknown[]>(root, '/api/audit/?actor=peer')).not.toEqual([]);
  });
});
