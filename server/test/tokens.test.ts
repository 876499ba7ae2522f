import type { Token } from '@switchyard/contract/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

type One = EnvelopeBody<Token>;
type Many = EnvelopeBody<Token[]>;
const now = () => Math.floor(Date.now() / 1000);

describe('tokens', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.user('alice');
    bob = await t.user('bob');
  });
  afterAll(() => t.close());

  const create = (client: Client, body: Record<string, unknown>) =>
    client.post<One>('/api/token/', { remain_quota: 500000, expired_time: -1, ...body });

  it('creates a token with a 48-character key from [0-9a-zA-Z] and answers it', async () => {
    const response = await create(alice, { name: 'laptop' });
    expect(response.body.success).toBe(true);
    const token = response.body.data!;
    expect(token).toMatchObject({
      name: 'laptop',
      status: 1,
      remain_quota: 500000,
      expired_time: -1,
      unlimited_quota: false,
    });
    expect(token.key).toMatch(/^[0-9a-zA-Z]{48}$/);
    const keys = new Set<string>();
    for (let i = 0; i < 5; i++) keys.add((await create(alice, { name: `k${i}` })).body.data!.key);
    expect(keys.size).toBe(5);
  });

  it.each([
    [{ name: '' }, /token name/],
    [{ name: 'x'.repeat(31) }, /at most 30/],
    [{ name: 'neg', remain_quota: -1 }, /cannot be negative/],
    [{ name: 'frac', remain_quota: 1.5 }, /whole number/],
    [{ name: 'past', expired_time: 1000 }, /must be in the future/],
    [{ name: 'badtime', expired_time: 'tomorrow' }, /expired_time must be a number/],
    [{ name: 'net', subnet: '10.0.0.0/8,999.1.1.1/8' }, /^Invalid subnet: "999.1.1.1\/8"/],
    [{ name: 'model', models: 'gpt-4,no-such-model' }, /Unknown model "no-such-model"/],
    [{ name: 'unl', unlimited_quota: 'yes' }, /unlimited_quota must be true or false/],
  ])('refuses %j without writing a row', async (body, message) => {
    const before = await t.db.kysely.selectFrom('tokens').select('id').execute();
    const response = await create(alice, body);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await t.db.kysely.selectFrom('tokens').select('id').execute()).toEqual(before);
  });

  /** 12 CIDR blocks: 227 characters joined by commas, over the 191 of tokens.subnet. */
  const blocks = Array.from({ length: 12 }, (_, i) => `192.168.${100 + i}.128/25`);

  it('refuses a subnet list longer than its column (191) with a clear message, on every database', async () => {
    const before = await t.db.kysely.selectFrom('tokens').select('id').execute();
    const response = await create(alice, { name: 'wide', subnet: blocks.join(',') });
    // A field rule of the contract's schema, refused as malformed input like the name's length.
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: false,
      message: 'The subnet list must be at most 191 characters',
    });
    expect(await t.db.kysely.selectFrom('tokens').select('id').execute()).toEqual(before);
    // The limit is on the list as stored: 10 blocks typed with spaces (198 characters) store as 189.
    const typed = blocks.slice(0, 10).join(', ');
    expect(typed.length).toBeGreaterThan(191);
    const fits = await create(alice, { name: 'wide-ok', subnet: typed });
    expect(fits.body.success, fits.body.message).toBe(true);
    expect(fits.body.data?.subnet).toBe(blocks.slice(0, 10).join(','));
  });

  it.each([
    ['a past expiry', { expired_time: 1000 }, /must be in the future/],
    [
      'a bad subnet',
      { subnet: '10.0.0.0/8,not-a-cidr' },
      /^Invalid subnet: "not-a-cidr" is not a valid CIDR block/,
    ],
    [
      'a subnet list over 191 characters',
      { subnet: blocks.join(',') },
      /subnet list must be at most 191 characters/,
    ],
    ['an unknown model', { models: 'gpt-4,no-such-model' }, /Unknown model "no-such-model"/],
    ['a name over 30 characters', { name: 'y'.repeat(31) }, /at most 30/],
    ['a blank name', { name: '   ' }, /token name/],
    ['a negative quota', { remain_quota: -5 }, /cannot be negative/],
  ])('refuses an update with %s and leaves the token as it was', async (_label, change, message) => {
    const token = (await create(alice, { name: 'guarded', subnet: '10.0.0.0/8', models: 'gpt-4' })).body
      .data!;
    const before = await t.db.kysely.selectFrom('tokens').selectAll().where('id', '=', token.id).execute();
    const response = await alice.put('/api/token/', {
      id: token.id,
      name: token.name,
      expired_time: token.expired_time,
      remain_quota: token.remain_quota,
      unlimited_quota: token.unlimited_quota,
      models: token.models,
      subnet: token.subnet,
      ...change,
    });
    expect(response.status).toBeLessThan(500);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await t.db.kysely.selectFrom('tokens').selectAll().where('id', '=', token.id).execute()).toEqual(
      before,
    );
  });

  it('keeps models, subnet and unlimited quota', async () => {
    const response = await create(alice, {
      name: 'scoped',
      models: 'gpt-4, gpt-3.5-turbo',
      subnet: '10.0.0.0/8, 2001:db8::/32',
      unlimited_quota: true,
      expired_time: now() + 3600,
    });
    expect(response.body.data).toMatchObject({
      models: 'gpt-4,gpt-3.5-turbo',
      subnet: '10.0.0.0/8,2001:db8::/32',
      unlimited_quota: true,
    });
  });

  it('a user only ever sees and changes their own tokens', async () => {
    const mine = (await create(bob, { name: 'bobs' })).body.data!;
    expect((await alice.get<Many>('/api/token/')).body.data!.some((token) => token.id === mine.id)).toBe(
      false,
    );
    expect((await alice.get<Many>('/api/token/search?keyword=bob')).body.data).toEqual([]);
    expect((await alice.get(`/api/token/${mine.id}`)).body).toMatchObject({
      success: false,
      message: 'Token does not exist',
    });
    expect((await alice.put('/api/token/', { ...mine, name: 'stolen' })).body.success).toBe(false);
    expect((await alice.put('/api/token/?status_only=true', { id: mine.id, status: 2 })).body.success).toBe(
      false,
    );
    expect((await alice.delete(`/api/token/${mine.id}`)).body.success).toBe(false);
    const root = await t.root();
    expect((await root.get(`/api/token/${mine.id}`)).body.success).toBe(false);
    expect((await bob.get<One>(`/api/token/${mine.id}`)).body.data).toMatchObject({
      name: 'bobs',
      status: 1,
    });
  });

  it('updates a token fully and by status only', async () => {
    const token = (await create(bob, { name: 'edit-me' })).body.data!;
    const updated = await bob.put<One>('/api/token/', {
      ...token,
      name: 'edited',
      remain_quota: 42,
      status: 2,
    });
    expect(updated.body.data).toMatchObject({ name: 'edited', remain_quota: 42, status: 1 });
    expect(
      (await bob.put<One>('/api/token/?status_only=true', { id: token.id, status: 2 })).body.data?.status,
    ).toBe(2);
    expect(
      (await bob.put<One>('/api/token/?status_only=true', { id: token.id, status: 1 })).body.data?.status,
    ).toBe(1);
    const bad = await bob.put('/api/token/?status_only=true', { id: token.id, status: 3 });
    expect(bad.body.message).toMatch(/status must be 1/);
  });

  it('shows an expired or exhausted token as status 3 or 4 and refuses to enable it until fixed', async () => {
    const expiring = (await create(bob, { name: 'soon', expired_time: now() + 3600 })).body.data!;
    await t.db.kysely
      .updateTable('tokens')
      .set({ expired_time: now() - 10 })
      .where('id', '=', expiring.id)
      .execute();
    expect((await bob.get<One>(`/api/token/${expiring.id}`)).body.data?.status).toBe(3);
    await bob.put('/api/token/?status_only=true', { id: expiring.id, status: 2 });
    const refused = await bob.put('/api/token/?status_only=true', { id: expiring.id, status: 1 });
    expect(refused.body.message).toMatch(/has expired and cannot be enabled/);
    await bob.put('/api/token/', { id: expiring.id, name: 'soon', expired_time: -1, remain_quota: 10 });
    expect(
      (await bob.put<One>('/api/token/?status_only=true', { id: expiring.id, status: 1 })).body.data?.status,
    ).toBe(1);

    const empty = (await create(bob, { name: 'empty', remain_quota: 0 })).body.data!;
    expect(empty.status).toBe(4);
    await bob.put('/api/token/?status_only=true', { id: empty.id, status: 2 });
    expect((await bob.put('/api/token/?status_only=true', { id: empty.id, status: 1 })).body.message).toMatch(
      /used up its quota/,
    );
    await bob.put('/api/token/', { id: empty.id, name: 'empty', unlimited_quota: true });
    expect(
      (await bob.put<One>('/api/token/?status_only=true', { id: empty.id, status: 1 })).body.data?.status,
    ).toBe(1);
  });

  it('pages ten at a time and sorts by remaining and used quota', async () => {
    const carol = await t.user('carol');
    for (let i = 0; i < 11; i++) await create(carol, { name: `t${i}`, remain_quota: i * 10 });
    await create(carol, { name: 'infinite', unlimited_quota: true, remain_quota: 0 });
    const first = (await carol.get<Many>('/api/token/?p=0')).body.data!;
    expect(first).toHaveLength(10);
    expect(first[0]!.name).toBe('infinite');
    expect((await carol.get<Many>('/api/token/?p=1')).body.data).toHaveLength(2);
    const byRemain = (await carol.get<Many>('/api/token/?order=remain_quota')).body.data!;
    expect(byRemain.map((token) => token.name).slice(0, 3)).toEqual(['infinite', 't10', 't9']);
    const target = first.find((token) => token.name === 't3')!;
    await t.db.kysely.updateTable('tokens').set({ used_quota: 999 }).where('id', '=', target.id).execute();
    expect((await carol.get<Many>('/api/token/?order=used_quota')).body.data![0]!.name).toBe('t3');
    expect(
      (await carol.get<Many>('/api/token/search?keyword=t1')).body.data!.map((token) => token.name).sort(),
    ).toEqual(['t1', 't10']);
  });

  it('deletes a token', async () => {
    const token = (await create(alice, { name: 'gone' })).body.data!;
    expect((await alice.delete(`/api/token/${token.id}`)).body.success).toBe(true);
    expect((await alice.get(`/api/token/${token.id}`)).body.success).toBe(false);
    expect((await alice.delete(`/api/token/${token.id}`)).body.message).toBe('Token does not exist');
  });

  it('answers 401 to anonymous callers', async () => {
    expect((await t.client().get('/api/token/')).status).toBe(401);
    expect((await t.client().post('/api/token/', { name: 'x' })).status).toBe(401);
  });
});
