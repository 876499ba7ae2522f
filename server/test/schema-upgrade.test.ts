import type { LogEntry } from '@switchyard/contract/logs';
import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { createTestDatabase, type TestDatabase } from './databases';
import { Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

/**
 * A database an older Switchyard made: migrated to the latest, then `undo` takes away what the
 * migration `since` added; that migration and every later one run again when the app starts (each
 * one only adds what is missing). Answers the running app, closed after the suite.
 */
function databaseFromBefore(since: string, undo: (db: Db) => Promise<void>): { app: () => TestApp } {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    const db = openDatabase(database.target);
    await migrateToLatest(db);
    await undo(db);
    await sql`delete from kysely_migration where name >= ${since}`.execute(db.kysely);
    await db.close();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });
  return { app: () => t };
}

/** A database an older Switchyard made: every migration up to 0004 ran, so users has no session_epoch. */
describe('a database from before the session epoch', () => {
  const upgraded = databaseFromBefore('0005_session_epoch', async (db) => {
    await sql`insert into users (username, password, display_name, role, status, email, github_id, wechat_id, lark_id, quota, used_quota, request_count, inviter_id)
        values ('early', ${bcrypt.hashSync('early-pass', 10)}, '', 1, 1, '', '', '', '', 0, 0, 0, 0)`.execute(
      db.kysely,
    );
    await sql`alter table users drop column session_epoch`.execute(db.kysely);
  });

  it('gets the column, at 0 for the rows already there, and sessions end on logout', async () => {
    const t = upgraded.app();
    const early = await t.db.kysely
      .selectFrom('users')
      .select('session_epoch')
      .where('username', '=', 'early')
      .executeTakeFirstOrThrow();
    expect(Number(early.session_epoch)).toBe(0);

    const browser = t.client();
    await browser.login('early', 'early-pass');
    const copied = new Client(t.baseUrl);
    copied.cookie = browser.cookie;
    await browser.get('/api/user/logout');
    expect((await copied.get('/api/user/self')).status).toBe(401);
  });
});

/** A database from before log facts (0007): its logs have no facts column, and read with none. */
describe('a database from before log facts', () => {
  const upgraded = databaseFromBefore('0007_log_facts', async (db) => {
    await sql`alter table logs drop column facts`.execute(db.kysely);
    await sql`insert into logs (user_id, created_at, type, content, username, quota)
        values (1, 1700000000, 1, '管理员充值', 'early', 5)`.execute(db.kysely);
  });

  it('gets the column: old rows read without facts, new ones with', async () => {
    const t = upgraded.app();
    const root = await t.root();
    const early = (await root.get<EnvelopeBody<LogEntry[]>>('/api/log/?username=early')).body.data;
    expect(early?.map((log) => [log.content, log.facts])).toEqual([['管理员充值', null]]);
    const user = (await root.get<EnvelopeBody<Array<{ id: number }>>>('/api/user/search?keyword=root')).body
      .data![0]!;
    await root.post('/api/topup', { user_id: user.id, quota: 9 });
    const [topUp] = (await root.get<EnvelopeBody<LogEntry[]>>('/api/log/?type=1&username=root')).body.data!;
    expect(topUp?.facts).toEqual({ kind: 'top_up', quota: 9, by: 'root' });
  });
});

/** A database from before the audit log (0008): the table is added, and sign-ins are recorded in it. */
describe('a database from before the audit log', () => {
  const upgraded = databaseFromBefore('0008_audit_logs', async (db) => {
    await sql`drop table audit_logs`.execute(db.kysely);
  });

  it('gets the table, and the next sign-in is in it', async () => {
    const t = upgraded.app();
    const root = await t.root();
    const entries = (await root.get<EnvelopeBody<Array<{ action: string }>>>('/api/audit/')).body.data;
    expect(entries?.map((entry) => entry.action)).toEqual(['auth.login']);
  });
});

/** A database from before key limits and budgets (0009): the nullable columns are added, and used. */
describe('a database from before key limits', () => {
  const tokenColumns = ['rpm_limit', 'tpm_limit', 'concurrency_limit', 'budget_quota', 'budget_period'];
  const upgraded = databaseFromBefore('0009_key_limits', async (db) => {
    for (const column of [...tokenColumns, 'budget_used', 'budget_start']) {
      await sql`alter table tokens drop column ${sql.ref(column)}`.execute(db.kysely);
    }
    for (const column of ['rpm_limit', 'tpm_limit', 'concurrency_limit']) {
      await sql`alter table users drop column ${sql.ref(column)}`.execute(db.kysely);
    }
  });

  it('gets the columns, and a key keeps its limits', async () => {
    const t = upgraded.app();
    const root = await t.root();
    const created = await root.post<EnvelopeBody<unknown>>('/api/token/', {
      name: 'limited',
      remain_quota: 1000,
      expired_time: -1,
      rpm_limit: 5,
      budget_quota: 500,
      budget_period: 'daily',
    });
    expect(created.body.success).toBe(true);
    const [token] = (
      await root.get<EnvelopeBody<Array<Record<string, unknown>>>>('/api/token/search?keyword=limited')
    ).body.data!;
    expect(token).toMatchObject({ rpm_limit: 5, budget_quota: 500, budget_period: 'daily' });
  });
});
