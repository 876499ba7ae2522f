import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { createTestDatabase, type TestDatabase } from './databases';
import { VideoFake } from './fakes/videos';
import { clientsFor } from './harness';
import { books, expectBalancedBooks } from './ledger-books';
import { buildServer, freePort, ServerProcess } from './process/built-server';
import { type Customer, createChannel, createCustomer } from './relay-setup';
import { waitFor } from './wait';

const KEY = 'sk-video-crash-channel-key';
// sora-2, 4 s: ratio 50 × 4 × 1000.
const SORA_4S = 200_000;
const FUNDS = 5_000_000;

/**
 * A video job outlives its process: the built server is SIGKILLed between the job's creation and
 * its completion, and the restarted server (its background poller, and the client polling at the
 * same time) charges it exactly once.
 */
describe('a video job across a SIGKILL of the built server', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: TestDatabase;
  let fake: VideoFake;
  let server: ServerProcess;
  let db: Db;

  beforeAll(async () => {
    [build, database, fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new VideoFake(KEY).start(),
    ]);
    // A short lease: the killed process's holds come back soon after the restart.
    server = new ServerProcess(build.entry, await freePort(), {
      ...database.env,
      VIDEO_POLL_INTERVAL: '1',
      QUOTA_HOLD_LEASE: '2',
    });
    await server.start();
    db = openDatabase(database.target);
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.close();
    await database?.drop();
    await fake?.close();
    build?.remove();
  });

  it('settles exactly once after the restart, and nothing stays held', async () => {
    const clients = clientsFor(server.baseUrl);
    await createChannel(await clients.root(), { base_url: fake.url, key: KEY, models: 'sora-2' });
    const who: Customer = await createCustomer(clients, 'survivor', {
      quota: FUNDS,
      token: { unlimited_quota: true },
    });
    const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'survives', seconds: '4' });
    expect((await books({ db }, who.userId, who.token.id)).held).toBeGreaterThanOrEqual(SORA_4S);

    await server.stop('SIGKILL');
    fake.set(fake.only().id, { status: 'completed', progress: 100 });
    await server.start();

    // The client polls while the restarted server's poller looks at the job too.
    const polls = await Promise.all(Array.from({ length: 8 }, () => who.openai.videos.retrieve(created.id)));
    for (const video of polls) expect(video.status).toBe('completed');
    const settled = await waitFor(
      async () => {
        const now = await books({ db }, who.userId, who.token.id);
        return now.held === 0 && now.logs === 1 ? now : undefined;
      },
      { what: 'the job charged and the dead process’s holds swept', timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(settled.usedQuota).toBe(SORA_4S);
    const job = await db.kysely
      .selectFrom('video_jobs')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect([job.status, job.billing, Number(job.quota)]).toEqual(['completed', 'settled', SORA_4S]);
    // Another poll charges nothing more (the job's billing moved once).
    expect((await who.openai.videos.retrieve(created.id)).status).toBe('completed');
    await expectBalancedBooks({ db }, { userId: who.userId, tokenId: who.token.id, userFunds: FUNDS });
  }, 60_000);
});
