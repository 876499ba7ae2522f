import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { VideoFake } from './fakes/videos';
import { clientsFor } from './harness';
import { books, expectBalancedBooks } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { type Customer, consumeLogs, createChannel, createCustomer, openAiFor } from './relay-setup';
import { waitFor } from './wait';

const KEY = 'sk-video-crash-channel-key';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// sora-2, 4 s: ratio 50 × 4 × 1000.
const SORA_4S = 200_000;
// Enough for two 4 s jobs, not three.
const FUNDS = 500_000;
const KEY_FUNDS = 450_000;

/**
 * A video job's charge outlives its process: jobs are made, the built server is SIGKILLed, the
 * provider finishes some and fails others, and the restarted server (with a second process on the
 * same database, but on SQLite) settles or refunds each exactly once. Nothing a crash gives back
 * early, no video unpaid, no charge past what was taken.
 */
describe('video jobs across a SIGKILL of the built server', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: TestDatabase;
  let fake: VideoFake;
  const servers: ServerProcess[] = [];
  let db: Db;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new VideoFake(KEY).start(),
    ]);
    const env = {
      ...database.env,
      VIDEO_POLL_INTERVAL: '1',
      QUOTA_HOLD_LEASE: '2',
      ...(TEST_DIALECT === 'sqlite' ? {} : { REDIS_CONN_STRING: REDIS_URL }),
    };
    const processes = TEST_DIALECT === 'sqlite' ? 1 : 2;
    for (let i = 0; i < processes; i++) servers.push(new ServerProcess(build.entry, await freePort(), env));
    await servers[0]?.start();
    db = openDatabase(database.target);
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await db?.close();
    await database?.drop();
    await fake?.close();
    build?.remove();
  });

  it('charges at creation, and settles or refunds each job once after the restart', async () => {
    const first = servers[0] as ServerProcess;
    const clients = clientsFor(first.baseUrl);
    await createChannel(await clients.root(), { base_url: fake.url, key: KEY, models: 'sora-2' });
    const unlimited: Customer = await createCustomer(clients, 'survivor', {
      quota: FUNDS,
      token: { unlimited_quota: true },
    });
    const limited: Customer = await createCustomer(clients, 'limited', {
      quota: FUNDS,
      token: { unlimited_quota: false, remain_quota: KEY_FUNDS },
    });

    const jobs: Array<{ id: string; who: Customer }> = [];
    for (const who of [unlimited, limited]) {
      const made = await Promise.allSettled(
        Array.from({ length: 3 }, (_, i) =>
          who.openai.videos.create({ model: 'sora-2', prompt: `job ${i}`, seconds: '4' }),
        ),
      );
      const created = made.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      // Two fit in the account, the third is refused before any provider is asked.
      expect(created).toHaveLength(2);
      for (const job of created) jobs.push({ id: job.id, who });
      const charged = await books({ db }, who.userId, who.token.id);
      expect([charged.quota, charged.usedQuota, charged.held, charged.tokenHeld]).toEqual([
        FUNDS - 2 * SORA_4S,
        0,
        0,
        0,
      ]);
    }
    expect(fake.jobs.size).toBe(4);

    await first.stop('SIGKILL');
    // Each account: one job completed whole, one failed; the unlimited one's completed with 2 s of the 4.
    const upstream = [...fake.jobs.values()];
    const fates = new Map<string, 'completed' | 'failed'>();
    upstream.forEach((job, index) => {
      const completed = index % 2 === 0;
      fake.set(
        job.id,
        completed ? { status: 'completed', progress: 100 } : { status: 'failed', error: 'no' },
      );
      fates.set(job.id, completed ? 'completed' : 'failed');
    });
    fake.set((upstream[0] as { id: string }).id, { seconds: '2' });
    for (const server of servers) await server.start();

    // The client polls on every process while their pollers look at the jobs too.
    await Promise.all(
      jobs.flatMap(({ id, who }) =>
        servers.map((server) => openAiFor(server, `sk-${who.token.key}`).videos.retrieve(id)),
      ),
    );
    const rows = await waitFor(
      async () => {
        const all = await db.kysely.selectFrom('video_jobs').selectAll().execute();
        return all.every((row) => row.billing === 'settled' || row.billing === 'refunded') ? all : undefined;
      },
      { what: 'every job settled or refunded', timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(rows).toHaveLength(4);
    const byUpstream = new Map(rows.map((row) => [row.upstream_id, row]));
    for (const [upstreamId, fate] of fates) {
      const row = byUpstream.get(upstreamId);
      const expected =
        fate === 'failed'
          ? ['failed', 'refunded', 0]
          : ['completed', 'settled', Number(row?.seconds) === 2 ? SORA_4S / 2 : SORA_4S];
      expect([row?.status, row?.billing, Number(row?.quota)]).toEqual(expected);
    }

    for (const who of [unlimited, limited]) {
      const own = rows.filter((row) => row.user_id === who.userId);
      const logs = await consumeLogs({ db }, who.userId);
      // One log per completed job, naming it, at what it was settled for.
      const settled = own.filter((row) => row.billing === 'settled');
      expect(logs.map((log) => [log.request_id, Number(log.quota)]).sort()).toEqual(
        settled.map((row) => [row.id, Number(row.quota)]).sort(),
      );
      await expectBalancedBooks(
        { db },
        {
          userId: who.userId,
          tokenId: who.token.id,
          userFunds: FUNDS,
          ...(who === limited ? { tokenFunds: KEY_FUNDS } : {}),
        },
      );
    }
    // Another round of polls changes nothing (each job's billing moved once).
    const before = await books({ db }, limited.userId, limited.token.id);
    for (const { id, who } of jobs) await who.openai.videos.retrieve(id);
    expect(await books({ db }, limited.userId, limited.token.id)).toEqual(before);
  }, 120_000);
});
