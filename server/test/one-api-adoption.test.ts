import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { Client, startTestApp, type TestApp } from './harness';

/** The users and logs tables as one-api v0.6.5 (gorm) creates them: no oidc_id, no request_id etc. */
function legacyDdl(): string[] {
  const q = (name: string) => (TEST_DIALECT === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const id = {
    sqlite: 'integer primary key autoincrement',
    postgres: 'bigserial primary key',
    mysql: 'bigint auto_increment primary key',
  }[TEST_DIALECT];
  const str = TEST_DIALECT === 'mysql' ? 'varchar(191)' : 'text';
  const big = TEST_DIALECT === 'sqlite' ? 'integer' : 'bigint';
  const long = TEST_DIALECT === 'mysql' ? 'longtext' : 'text';
  return [
    `create table users (id ${id}, username ${str} unique, password ${long} not null, display_name ${str},
      role ${big} default 1, status ${big} default 1, email ${str}, github_id ${str}, wechat_id ${str},
      lark_id ${str}, access_token char(32) unique, quota ${big} default 0, used_quota ${big} default 0,
      request_count ${big} default 0, ${q('group')} varchar(32) default 'default', aff_code varchar(32) unique,
      inviter_id ${big})`,
    `create table logs (id ${id}, user_id ${big}, created_at ${big}, type ${big}, content ${long},
      username ${str} default '', token_name ${str} default '', model_name ${str} default '',
      quota ${big} default 0, prompt_tokens ${big} default 0, completion_tokens ${big} default 0, channel_id ${big})`,
    `create table options (${q('key')} varchar(191) primary key, value ${long})`,
  ];
}

describe('an existing one-api database', () => {
  let database: TestDatabase;
  let t: TestApp;
  // A hash as Go's bcrypt (cost 10, $2a$) writes it.
  const goHash = bcrypt.hashSync('legacy-pass', 10).replace(/^\$2b\$/, '$2a$');

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = openDatabase(database.target);
    for (const statement of legacyDdl()) await sql.raw(statement).execute(db.kysely);
    await sql
      .raw(
        `insert into users (username, password, display_name, role, status, access_token, quota, aff_code)
         values ('oldroot', '${goHash}', 'Old Root', 100, 1, 'aaaabbbbccccddddeeeeffff00001111', 123456789, 'Ab12')`,
      )
      .execute(db.kysely);
    await sql
      .raw(`insert into logs (user_id, created_at, type, content) values (1, 1700000000, 2, 'old call')`)
      .execute(db.kysely);
    await sql
      .raw(
        `insert into options (${TEST_DIALECT === 'mysql' ? '`key`' : '"key"'}, value) values ('SystemName', 'Legacy API')`,
      )
      .execute(db.kysely);
    await db.close();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('opens without changes: existing users log in with their Go bcrypt hash', async () => {
    const client = t.client();
    const login = await client.login('oldroot', 'legacy-pass');
    expect(login.data).toMatchObject({ username: 'oldroot', role: 100, quota: 123456789 });
  });

  it('keeps existing options and does not create a second root', async () => {
    const status = await t.client().get<{ data: { system_name: string } }>('/api/status');
    expect(status.body.data.system_name).toBe('Legacy API');
    const count = await t.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('adds the newer columns and the missing tables, keeping old rows', async () => {
    const log = await t.db.kysely.selectFrom('logs').selectAll().executeTakeFirstOrThrow();
    expect(log).toMatchObject({ content: 'old call', request_id: '', elapsed_time: 0 });
    const user = await t.db.kysely.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(user.oidc_id ?? null).toBeNull();
    const tables = (await t.db.kysely.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(
      expect.arrayContaining(['users', 'tokens', 'channels', 'abilities', 'redemptions', 'logs', 'options']),
    );
  });

  it('fills the log summaries from the logs it finds', async () => {
    const hourly = await t.db.kysely.selectFrom('log_summaries').selectAll().execute();
    expect(
      hourly.map((row) => ({ ...row, quota: Number(row.quota), log_count: Number(row.log_count) })),
    ).toEqual([
      {
        bucket: 1_699_999_200,
        type: 2,
        user_id: 1,
        username: '',
        token_name: '',
        model_name: '',
        channel_id: 0,
        quota: 0,
        log_count: 1,
      },
    ]);
    const daily = await t.db.kysely
      .selectFrom('log_daily_summaries')
      .select(['bucket', 'log_count'])
      .execute();
    expect(daily.map((row) => [Number(row.bucket), Number(row.log_count)])).toEqual([[1_699_920_000, 1]]);
  });

  it("gives one-api's users a session epoch, so their sessions can be ended", async () => {
    const user = await t.db.kysely.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(Number(user.session_epoch)).toBe(0);
    const browser = t.client();
    await browser.login('oldroot', 'legacy-pass');
    const copied = new Client(t.baseUrl);
    copied.cookie = browser.cookie;
    await browser.get('/api/user/logout');
    expect((await copied.get('/api/user/self')).status).toBe(401);
    await browser.login('oldroot', 'legacy-pass');
    expect((await browser.get('/api/user/self')).body.success).toBe(true);
  });

  it('the access token of a one-api user still authenticates', async () => {
    const client = t.client();
    client.authorization = 'aaaabbbbccccddddeeeeffff00001111';
    expect((await client.get('/api/user/self')).body).toMatchObject({
      success: true,
      data: { username: 'oldroot' },
    });
  });

  it('takes into the totals the logs one-api goes on writing with its own columns', async () => {
    const oneApi = openDatabase(database.target);
    await sql
      .raw(
        `insert into logs (user_id, created_at, type, content, quota) values (1, 1700000100, 2, 'one-api', 700)`,
      )
      .execute(oneApi.kysely);
    await oneApi.close();
    expect(await t.app.services.logSummaryCatchUp.catchUp()).toBe(1);
    const client = t.client();
    await client.login('oldroot', 'legacy-pass');
    expect((await client.get('/api/log/stat')).body.data).toEqual({ quota: 700 });
  });
});
