import { REDEMPTION_DEFAULT_QUOTA, type Redemption } from '@switchyard/contract/redemptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

describe('redemption codes and top-up', () => {
  let t: TestApp;
  let root: Client;
  beforeAll(async () => {
    t = await startTestApp();
    root = await t.root();
  });
  afterAll(() => t.close());

  const createCodes = async (name: string, quota: number, count: number): Promise<string[]> => {
    const response = await root.post<EnvelopeBody<string[]>>('/api/redemption/', { name, quota, count });
    expect(response.body.success, response.body.message).toBe(true);
    return response.body.data!;
  };
  const quotaOf = async (client: Client) =>
    (await client.get<EnvelopeBody<{ quota: number }>>('/api/user/self')).body.data!.quota;

  it('creates count unique 32-hex codes in one call', async () => {
    const keys = await createCodes('batch', 1000, 25);
    expect(keys).toHaveLength(25);
    expect(new Set(keys).size).toBe(25);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    const list = (await root.get<EnvelopeBody<Redemption[]>>('/api/redemption/?p=0')).body.data!;
    expect(list).toHaveLength(10);
    expect(list[0]).toMatchObject({ name: 'batch', quota: 1000, status: 1, redeemed_time: 0 });
  });

  it.each([
    [{ name: '', quota: 1, count: 1 }, /name/],
    [{ name: 'x'.repeat(21), quota: 1, count: 1 }, /1 to 20 characters/],
    [{ name: 'ok', quota: 1, count: 0 }, /at least 1/],
    [{ name: 'ok', quota: 1, count: 101 }, /At most 100/],
    [{ name: 'ok', quota: -5, count: 1 }, /cannot be negative/],
    [{ name: 'ok', quota: 'many', count: 1 }, /quota must be a number/],
    [{ name: 'ok', quota: 1, count: 1.5 }, /count must be a whole number/],
    [{ name: 'ok', quota: 1, count: '5' }, /count must be a number/],
    [{ name: 'ok', quota: null, count: 'x' }, /count must be a number/],
  ])('refuses %j without writing a code', async (body, message) => {
    const before = await t.db.kysely.selectFrom('redemptions').select('id').execute();
    const response = await root.post('/api/redemption/', body);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await t.db.kysely.selectFrom('redemptions').select('id').execute()).toEqual(before);
  });

  it('reads a null count or quota as absent (one-api consoles send null for no value): the defaults', async () => {
    const response = await root.post<EnvelopeBody<string[]>>('/api/redemption/', {
      name: 'nulls',
      quota: null,
      count: null,
    });
    expect(response.body.data).toHaveLength(1);
    const row = await t.db.kysely
      .selectFrom('redemptions')
      .selectAll()
      .where('name', '=', 'nulls')
      .executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(REDEMPTION_DEFAULT_QUOTA);
  });

  it('redeems a code into quota with a top-up log; a second try is refused', async () => {
    const [key] = await createCodes('single', 777, 1);
    const user = await t.user('redeemer');
    const before = await quotaOf(user);
    const response = await user.post('/api/user/topup', { key });
    expect(response.body).toEqual({ success: true, message: '', data: 777 });
    expect(await quotaOf(user)).toBe(before + 777);
    const again = await user.post('/api/user/topup', { key });
    expect(again.body).toMatchObject({ success: false });
    expect(again.body.message).toMatch(/already been used/);
    expect(await quotaOf(user)).toBe(before + 777);
    const code = (await root.get<EnvelopeBody<Redemption[]>>('/api/redemption/search?keyword=single')).body
      .data![0]!;
    expect(code.status).toBe(3);
    expect(code.redeemed_time).toBeGreaterThan(0);
    const logs = await t.db.kysely
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 1)
      .where('quota', '=', 777)
      .execute();
    expect(logs).toHaveLength(1);
  });

  it('refuses an empty, unknown or disabled code', async () => {
    const user = await t.user('tryer');
    expect((await user.post('/api/user/topup', { key: '' })).body.message).toBe(
      'Please enter the top-up code',
    );
    expect((await user.post('/api/user/topup', { key: 'f'.repeat(32) })).body.message).toMatch(/not valid/);
    const [key] = await createCodes('disabled', 5, 1);
    const code = (await root.get<EnvelopeBody<Redemption[]>>('/api/redemption/search?keyword=disabled')).body
      .data![0]!;
    expect(
      (await root.put('/api/redemption/?status_only=true', { id: code.id, status: 2 })).body.success,
    ).toBe(true);
    expect((await user.post('/api/user/topup', { key })).body.message).toMatch(/has been disabled/);
  });

  it('credits a code exactly once when 50 requests race for it', async () => {
    const [key] = await createCodes('race', 1000, 1);
    const racers = await Promise.all(Array.from({ length: 5 }, (_, i) => t.user(`racer${i}`)));
    const before = await Promise.all(racers.map(quotaOf));
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => racers[i % racers.length]!.post('/api/user/topup', { key })),
    );
    const successes = attempts.filter((attempt) => attempt.body.success);
    expect(successes).toHaveLength(1);
    expect(attempts.every((attempt) => attempt.status === 200)).toBe(true);
    const after = await Promise.all(racers.map(quotaOf));
    const gained = after.reduce((sum, quota, i) => sum + quota - before[i]!, 0);
    expect(gained).toBe(1000);
    const logs = await t.db.kysely
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 1)
      .where('quota', '=', 1000)
      .execute();
    expect(logs).toHaveLength(1);
  });

  it('updates name and quota, toggles status, refuses changes to used codes, deletes', async () => {
    const [key] = await createCodes('editable', 10, 1);
    const code = (await root.get<EnvelopeBody<Redemption[]>>('/api/redemption/search?keyword=editable')).body
      .data![0]!;
    expect((await root.get<EnvelopeBody<Redemption>>(`/api/redemption/${code.id}`)).body.data?.key).toBe(key);
    const updated = await root.put<EnvelopeBody<Redemption>>('/api/redemption/', {
      id: code.id,
      name: 'edited',
      quota: 20,
    });
    expect(updated.body.data).toMatchObject({ name: 'edited', quota: 20, status: 1 });
    const user = await t.user('usedit');
    await user.post('/api/user/topup', { key });
    expect((await root.put('/api/redemption/', { id: code.id, name: 'x', quota: 1 })).body.message).toMatch(
      /has been used/,
    );
    expect(
      (await root.put('/api/redemption/?status_only=true', { id: code.id, status: 1 })).body.message,
    ).toMatch(/used code cannot/);
    expect((await root.delete(`/api/redemption/${code.id}`)).body.success).toBe(true);
    expect((await root.get(`/api/redemption/${code.id}`)).body.message).toBe(
      'Redemption code does not exist',
    );
  });

  describe('refused changes leave the code as it was', () => {
    let code: Redemption;
    const row = () => t.db.kysely.selectFrom('redemptions').selectAll().where('id', '=', code.id).execute();
    beforeAll(async () => {
      await createCodes('guarded', 50, 1);
      code = (await root.get<EnvelopeBody<Redemption[]>>('/api/redemption/search?keyword=guarded')).body
        .data![0]!;
    });

    it.each([
      [
        'status 3 through status_only',
        '?status_only=true',
        { status: 3 },
        /status must be 1 \(unused\) or 2/,
      ],
      [
        'status 0 through status_only',
        '?status_only=true',
        { status: 0 },
        /status must be 1 \(unused\) or 2/,
      ],
      ['an empty name', '', { name: '', quota: 5 }, /Please enter a name for the codes/],
      ['a blank name', '', { name: '   ', quota: 5 }, /Please enter a name for the codes/],
      ['a name over 20 characters', '', { name: 'n'.repeat(21), quota: 5 }, /1 to 20 characters/],
      ['a negative quota', '', { name: 'ok', quota: -1 }, /quota cannot be negative/],
      ['a fractional quota', '', { name: 'ok', quota: 2.5 }, /quota must be a whole number/],
      ['a quota of the wrong type', '', { name: 'ok', quota: '5' }, /quota must be a number/],
    ])('refuses an update with %s', async (_label, query, change, message) => {
      const before = await row();
      const response = await root.put(`/api/redemption/${query}`, { id: code.id, ...change });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(false);
      expect(response.body.message).toMatch(message);
      expect(await row()).toEqual(before);
    });

    it('answers that an unknown code does not exist on update, status change and delete', async () => {
      const before = await t.db.kysely.selectFrom('redemptions').selectAll().orderBy('id').execute();
      const calls = [
        root.put('/api/redemption/', { id: 987654, name: 'ghost', quota: 1 }),
        root.put('/api/redemption/?status_only=true', { id: 987654, status: 2 }),
        root.delete('/api/redemption/987654'),
        root.get('/api/redemption/987654'),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          success: false,
          message: 'Redemption code does not exist',
          code: 'redemption_not_found',
        });
      }
      expect(await t.db.kysely.selectFrom('redemptions').selectAll().orderBy('id').execute()).toEqual(before);
    });
  });

  it('refuses a top-up key longer than 64 characters as malformed, crediting nothing', async () => {
    const user = await t.user('longkey');
    const before = await quotaOf(user);
    const response = await user.post('/api/user/topup', { key: 'a'.repeat(65) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: false,
      message: 'This top-up code is not valid: codes are 32 characters long',
      code: 'field_too_long',
      params: { field: 'key', max: 64 },
    });
    // 33–64 characters is simply not a code.
    expect((await user.post('/api/user/topup', { key: 'a'.repeat(64) })).body.message).toMatch(/not valid/);
    expect(await quotaOf(user)).toBe(before);
  });

  it('is for administrators only; top-up is for any signed-in user', async () => {
    const user = await t.user('normal');
    for (const [method, url] of [
      ['GET', '/api/redemption/'],
      ['GET', '/api/redemption/search?keyword=a'],
      ['POST', '/api/redemption/'],
      ['DELETE', '/api/redemption/1'],
    ] as const) {
      const response = await user.request(
        method,
        url,
        method === 'POST' ? { name: 'x', quota: 1, count: 1 } : undefined,
      );
      expect(response.body.success).toBe(false);
    }
    expect((await t.client().post('/api/user/topup', { key: 'abc' })).status).toBe(401);
  });
});
