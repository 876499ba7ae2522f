import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database';
import {
  createLogTestDatabase,
  createTestDatabase,
  logSqlDsnOf,
  TEST_DIALECT,
  type TestDatabase,
} from '../databases';
import { HttpFake } from '../fakes/http-fake';
import { openAiHandler } from '../fakes/openai';
import { clientsFor } from '../harness';
import { sleep } from '../ledger-books';
import { type Customer, createChannel, createCustomer } from '../relay-setup';
import { buildServer, freePort, ServerProcess } from './built-server';
import { type LoadCall, runLoad } from './load';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// SQLite is one process; the servers are shared by two, with Redis.
const PROCESSES = TEST_DIALECT === 'sqlite' ? 1 : 2;

interface Account {
  customer: Customer;
  /** What was put in: the user's quota and each key's remain_quota (undefined: unlimited). */
  userFunds: number;
  keys: Array<{ id: number; name: string; key: string; funds: number | undefined }>;
}

const count = async (sql: Db['logs'], table: 'log_outbox' | 'log_receipts') =>
  Number(
    (
      await sql.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );

/** Everything the databases say about the accounts, for the books to be checked. */
async function readBooks(db: Db, accounts: Account[]) {
  const userIds = accounts.map((account) => account.customer.userId);
  const users = await db.kysely.selectFrom('users').selectAll().where('id', 'in', userIds).execute();
  const tokens = await db.kysely.selectFrom('tokens').selectAll().where('user_id', 'in', userIds).execute();
  // With LOG_SQL_DSN: the logs still in the outbox, and the receipts a shipment has not forgotten yet.
  const waiting = db.logDatabase
    ? (await count(db, 'log_outbox')) + (await count(db.logs, 'log_receipts'))
    : 0;
  const logs = await db.logs.kysely
    .selectFrom('logs')
    .select(['user_id', 'token_name', 'quota', 'request_id'])
    .where('type', '=', 2)
    .where('user_id', 'in', userIds)
    .execute();
  return { users, tokens, logs, waiting };
}

/**
 * The ledger's guarantee 3, crash-safe (docs/ledger.md): SIGKILL under load, then a restart, and the
 * books balance account by account, with exactly one log per settled call. With `logDatabase`, the
 * logs live in a database of their own (LOG_SQL_DSN) and reach it through the outbox, which a kill
 * may cut at any step.
 */
export function describeCrashUnderLoad({ logDatabase = false }: { logDatabase?: boolean } = {}): void {
  const where = logDatabase ? ', logs in LOG_SQL_DSN' : '';
  describe(`guarantee 3: SIGKILL under load (${PROCESSES} process${PROCESSES > 1 ? 'es' : ''}${where})`, () => {
    let database: TestDatabase;
    let logs: TestDatabase | undefined;
    let db: Db;
    let fake: HttpFake;
    let build: Awaited<ReturnType<typeof buildServer>>;
    const processes: ServerProcess[] = [];
    const accounts: Account[] = [];

    beforeAll(async () => {
      [build, database, fake] = await Promise.all([
        buildServer(),
        createTestDatabase(),
        // Streams of ten words 15 ms apart, answers after 30 ms: many calls are in flight at any time.
        new HttpFake(
          openAiHandler({
            delayMs: 30,
            chunkDelayMs: 15,
            reply: 'one two three four five six seven eight nine ten',
          }),
        ).start(),
      ]);
      logs = logDatabase ? await createLogTestDatabase() : undefined;
      const env = {
        ...database.env,
        ...(logs ? { LOG_SQL_DSN: logSqlDsnOf(logs) } : {}),
        QUOTA_HOLD_LEASE: '2',
        ...(PROCESSES > 1 ? { REDIS_CONN_STRING: REDIS_URL } : {}),
      };
      for (let i = 0; i < PROCESSES; i++) {
        const server = new ServerProcess(build.entry, await freePort(), env);
        // The first one migrates the new database; the others start once it has.
        await server.start();
        processes.push(server);
      }
      db = openDatabase(database.target, {}, logs?.target);
      const first = clientsFor(processes[0]!.baseUrl);
      await createChannel(await first.root(), { base_url: fake.url });
      // Two rich users (credit held ahead in memory) and one that can pay for a few dozen calls only.
      for (const [name, quota] of [
        ['crashrich1', 5_000_000],
        ['crashrich2', 5_000_000],
        ['crashpoor', 3_000],
      ] as const) {
        const customer = await createCustomer(first, name, { quota, token: { remain_quota: 400_000 } });
        const unlimited = await customer.client.post<{ data: { id: number; key: string; name: string } }>(
          '/api/token/',
          { name: `${name}-free`, unlimited_quota: true, remain_quota: 0, expired_time: -1 },
        );
        accounts.push({
          customer,
          userFunds: quota,
          keys: [
            { id: customer.token.id, name: customer.token.name, key: customer.token.key, funds: 400_000 },
            { ...unlimited.body.data, funds: undefined },
          ],
        });
      }
    }, 120_000);

    afterAll(async () => {
      for (const server of processes) await server.stop('SIGKILL');
      await db?.close();
      await database?.drop();
      await logs?.drop();
      await fake?.close();
      build?.remove();
    });

    it('books balance account by account after the killed process restarts', async () => {
      const victim = processes[0]!;
      let alive = processes.map((server) => server.baseUrl);
      const keys = accounts.flatMap((account) => account.keys.map((key) => `sk-${key.key}`));
      const calls: LoadCall[] = [];
      const load = runLoad({ targets: () => alive, keys, workers: 24, durationMs: 30_000, calls });
      // The kill comes once the load is in full swing, however slow the machine is today.
      const swing = Date.now() + 15_000;
      while (calls.filter((call) => call.completed).length < 60 && Date.now() < swing) await sleep(50);
      await victim.stop('SIGKILL');
      // With two processes the load goes on against the survivor for a while; with one it stops here.
      alive = alive.filter((url) => url !== victim.baseUrl);
      const killedAt = Date.now();
      const servedSinceKill = () =>
        calls.filter((call) => call.completed && call.startedAt > killedAt && alive.includes(call.target))
          .length;
      while (alive.length > 0 && servedSinceKill() < 60 && Date.now() < killedAt + 15_000) await sleep(50);
      alive = [];
      await load;
      await victim.start();

      // The dead process's holds come back once its lease (2 s) runs out and a sweep finds it.
      const deadline = Date.now() + 20_000;
      let state = await readBooks(db, accounts);
      // With LOG_SQL_DSN, the logs of the outbox reach the log database within a second of the restart.
      while (
        ([...state.users, ...state.tokens].some((row) => Number(row.held_quota) !== 0) ||
          state.waiting > 0) &&
        Date.now() < deadline
      ) {
        await sleep(250);
        state = await readBooks(db, accounts);
      }

      const completed = calls.filter((call) => call.completed);
      // The poor account runs dry: a clean refusal, before any upstream call.
      const refused = calls.filter((call) => call.status === 403);
      const unfinished = calls.filter((call) => !call.completed && call.status !== 403);
      console.info(
        `${TEST_DIALECT}: ${calls.length} calls, ${completed.length} completed, ${refused.length} refused for quota, ${unfinished.length} cut by the kill`,
      );
      expect(completed.length).toBeGreaterThan(50);
      expect(unfinished.length).toBeGreaterThan(0);
      for (const call of refused) expect(call.error).toMatch(/quota/);
      for (const call of unfinished) {
        // Only the kill may stop a call: a connection that broke, or a stream it cut.
        expect(call.status === 0 || call.status === 200, call.error).toBe(true);
      }

      for (const row of [...state.users, ...state.tokens]) expect(Number(row.held_quota)).toBe(0);
      expect(state.waiting).toBe(0);
      for (const account of accounts) {
        const user = state.users.find((row) => row.id === account.customer.userId)!;
        const logs = state.logs.filter((log) => log.user_id === user.id);
        const logged = logs.reduce((sum, log) => sum + Number(log.quota), 0);
        expect(Number(user.quota)).toBeGreaterThanOrEqual(0);
        expect(Number(user.quota) + Number(user.used_quota)).toBe(account.userFunds);
        expect(logged).toBe(Number(user.used_quota));
        for (const key of account.keys) {
          const token = state.tokens.find((row) => row.id === key.id)!;
          const keyLogged = logs
            .filter((log) => log.token_name === key.name)
            .reduce((sum, log) => sum + Number(log.quota), 0);
          expect(Number(token.used_quota)).toBe(keyLogged);
          if (key.funds !== undefined) {
            expect(Number(token.remain_quota)).toBeGreaterThanOrEqual(0);
            expect(Number(token.remain_quota) + Number(token.used_quota)).toBe(key.funds);
          }
        }
      }

      // Every call a client received whole has exactly one log; the kill's calls at most one each.
      const logsByRequest = new Map<string, number>();
      for (const log of state.logs)
        logsByRequest.set(log.request_id ?? '', (logsByRequest.get(log.request_id ?? '') ?? 0) + 1);
      for (const call of completed) expect(logsByRequest.get(call.requestId ?? ''), call.requestId).toBe(1);
      const completedIds = new Set(completed.map((call) => call.requestId));
      const extra = state.logs.filter((log) => !completedIds.has(log.request_id ?? ''));
      expect(extra.length).toBeLessThanOrEqual(unfinished.length);
      for (const count of logsByRequest.values()) expect(count).toBe(1);
    }, 90_000);
  });
}
