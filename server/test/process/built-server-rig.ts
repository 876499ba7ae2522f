import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../databases';
import { type FakeHandler, HttpFake } from '../fakes/http-fake';
import { clientsFor } from '../harness';
import { type ChannelSpec, createChannel, createCustomer } from '../relay-setup';
import { buildServer, freePort, ServerProcess } from './built-server';

/** What a suite on the built server works with, ready once its `beforeAll` ran. */
export interface BuiltServerRig {
  server: ServerProcess;
  database: TestDatabase;
  /** The upstream the channel points at. */
  fake: HttpFake;
  channelId: number;
  /** The API key ("sk-…") of a customer the rig created. */
  key(username: string): string;
}

/**
 * The built server as an operator runs it, on a fresh test database, with one channel to a fake
 * upstream and customers of their own keys; the process killed and everything removed after the
 * suite. Call it inside `describe`.
 */
export function builtServerRig(setup: {
  upstream: FakeHandler;
  /** The server's environment beyond the database's. */
  env?: Record<string, string>;
  /** The channel's fields beyond its base URL. */
  channel?: Omit<ChannelSpec, 'base_url'>;
  /** Each customer's username and quota. */
  customers?: Record<string, number>;
}): BuiltServerRig {
  let build: Awaited<ReturnType<typeof buildServer>> | undefined;
  const keys = new Map<string, string>();
  const rig = {
    key(username: string) {
      const key = keys.get(username);
      if (key === undefined) throw new Error(`the rig has no customer ${username}`);
      return key;
    },
  } as BuiltServerRig;

  beforeAll(async () => {
    [build, rig.database, rig.fake] = await Promise.all([
      buildServer(),
      createTestDatabase(),
      new HttpFake(setup.upstream).start(),
    ]);
    rig.server = new ServerProcess(build.entry, await freePort(), { ...rig.database.env, ...setup.env });
    await rig.server.start();
    const clients = clientsFor(rig.server.baseUrl);
    rig.channelId = await createChannel(await clients.root(), { ...setup.channel, base_url: rig.fake.url });
    for (const [username, quota] of Object.entries(setup.customers ?? {}))
      keys.set(username, `sk-${(await createCustomer(clients, username, { quota })).token.key}`);
  }, 120_000);

  afterAll(async () => {
    await rig.server?.stop('SIGKILL');
    await rig.database?.drop();
    await rig.fake?.close();
    build?.remove();
  });
  return rig;
}
