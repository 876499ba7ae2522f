import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { OptionsStore } from '../src/domain/options';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from './databases';
import { targetPort, targetThroughProxy } from './process/database-proxy';
import { TcpProxy } from './process/tcp-proxy';

// SQLite answers in the order it was asked: only a database over the network can answer out of order.
describe.skipIf(TEST_DIALECT === 'sqlite')('options read again while an older read is on its way', () => {
  let database: TestDatabase;
  let direct: Db;
  let proxy: TcpProxy;
  let proxied: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    direct = openDatabase(database.target);
    await migrateToLatest(direct);
    proxy = await new TcpProxy('127.0.0.1', targetPort(database)).start();
    proxied = openDatabase(targetThroughProxy(database, proxy.port));
  });

  afterAll(async () => {
    await proxied?.close();
    await proxy?.close();
    await direct?.close();
    await database?.drop();
  });

  it('keep the newer read: a change heard twice never puts the older value back', async () => {
    // Another process saves; this one reloads each time it hears of a change (Redis, the primary).
    const saver = new OptionsStore(direct);
    const hearer = new OptionsStore(proxied);
    await saver.update('SystemName', 'Name 1');
    await hearer.reload(); // its one connection to the database, idle now
    expect(hearer.get('SystemName')).toBe('Name 1');

    // The first reload's answer (Name 1) is slow to come back...
    const slow = proxy.holdReplies();
    const first = hearer.reload();
    await slow.answered;
    // ...while the next change is saved and heard.
    await saver.update('SystemName', 'Name 2');
    const second = hearer.reload();
    // Read at once on a second connection, the newer answer would come back first and be applied
    // first: give it that chance. Read after the first, it waits for the release, which it cannot see.
    await Promise.race([second, delay(1_000)]);
    slow.release();
    await Promise.all([first, second]);
    expect(hearer.get('SystemName')).toBe('Name 2');
  });
});
