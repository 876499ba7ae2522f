import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POOL } from '../../config/database-pool';
import { type Db, openDatabase } from '../database';
import { migrateToLatest } from '../migrate';
import type { Settlement } from './ledger';

/**
 * Another connection, on a thread of its own, that takes the write lock: resolves once it holds it.
 * It keeps it until `letGoIn` is called, then `holdMs` longer, so a statement begun after that call
 * waits at least `holdMs`, however late this thread heard that the lock was taken.
 */
async function lockElsewhere(
  file: string,
  holdMs: number,
): Promise<{ letGoIn: () => void; released: Promise<void> }> {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const database = new (require(workerData.driver))(workerData.file);
    database.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('locked');
    Atomics.wait(workerData.signal, 0, 0);
    Atomics.wait(workerData.signal, 0, 1, workerData.holdMs);
    database.exec('COMMIT');
    database.close();
    parentPort.postMessage('released');`,
    {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, holdMs, signal },
    },
  );
  const messages: string[] = [];
  const told = (message: string) =>
    new Promise<void>((resolve, reject) => {
      if (messages.includes(message)) return resolve();
      worker.on('message', (got: string) => got === message && resolve());
      worker.once('error', reject);
    });
  worker.on('message', (got: string) => messages.push(got));
  await told('locked');
  return {
    letGoIn() {
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    },
    released: told('released').then(() => worker.terminate().then(() => undefined)),
  };
}

describe('the embedded ledger', () => {
  let db: Db | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A migrated database in a file of its own, waiting up to 10 s for a lock: a driver that slept on
   * the lock would sleep this long, far beyond what waiting on timers takes.
   */
  const open = async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-ledger-'));
    const file = path.join(dir, 'db.sqlite');
    const opened = openDatabase(
      { dialect: 'sqlite', file },
      { pool: { ...DEFAULT_POOL, sqliteBusyTimeoutMs: 10_000 } },
    );
    db = opened;
    await migrateToLatest(opened);
    return { opened, file };
  };

  it('waits for a database another connection holds without stopping the event loop', async () => {
    const { opened, file } = await open();
    // Another connection (a checkpoint starting the WAL over, another process) holds the write lock,
    // and lets it go on a timer of this same event loop.
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const heldFor = 150;
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec('COMMIT');
        other.close();
        resolve();
      }, heldFor),
    );
    const started = performance.now();
    // A driver that slept on the lock would hold the loop: the timer could not release it before the
    // busy timeout (10 s) ran out.
    await opened.ledger.register('holder-1', Date.now() + 60_000);
    const waited = performance.now() - started;
    await released;
    expect(waited).toBeGreaterThanOrEqual(heldFor - 5);
    expect(waited).toBeLessThan(5_000);
    const row = opened.sqlite!.prepare('SELECT holder FROM quota_holders WHERE holder = ?').get('holder-1');
    expect(row).toEqual({ holder: 'holder-1' });
  });

  it("leaves Kysely's statements waiting for a lock held elsewhere, as the driver does", async () => {
    const { opened, file } = await open();
    // The ledger's transaction leaves the connection not waiting (its BEGIN must not).
    await opened.ledger.register('holder-1', Date.now() + 60_000);
    const heldFor = 150;
    const { letGoIn, released } = await lockElsewhere(file, heldFor);
    const started = performance.now();
    letGoIn();
    // Blocks the event loop until the other thread commits: a statement that did not wait would fail
    // at once with SQLITE_BUSY.
    await opened.kysely.insertInto('options').values({ key: 'LockedWrite', value: 'waited' }).execute();
    const waited = performance.now() - started;
    await released;
    expect(waited).toBeGreaterThanOrEqual(heldFor - 5);
    const row = await opened.kysely
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'LockedWrite')
      .executeTakeFirst();
    expect(row).toEqual({ value: 'waited' });
    // And the ledger's next transaction, after Kysely's statement (the test above: after migrations).
    expect(await opened.ledger.renew('holder-1', Date.now() + 60_000)).toBe(true);
  });

  it('settles a batch once: a retry after its commit charges nothing, a retry after its failure charges it', async () => {
    const { opened } = await open();
    const database = opened.sqlite as Database.Database;
    const userId = Number(
      database
        .prepare(
          `INSERT INTO users (username, password, display_name, role, status, quota, "group")
           VALUES ('payer', 'x', 'payer', 1, 1, 1000, 'default')`,
        )
        .run().lastInsertRowid,
    );
    const tokenId = Number(
      database
        .prepare(
          `INSERT INTO tokens (user_id, key, status, name, created_time, accessed_time, expired_time,
             remain_quota, unlimited_quota, used_quota)
           VALUES (?, ?, 1, 'key', 0, 0, -1, 1000, 0, 0)`,
        )
        .run(userId, 'k'.repeat(48)).lastInsertRowid,
    );
    await opened.ledger.register('holder-1', Date.now() + 60_000);
    const now = Math.floor(Date.now() / 1000);
    const call = (requestId: string): Settlement => ({
      holder: 'holder-1',
      userId,
      tokenId,
      unlimitedToken: false,
      amount: 0,
      channelId: 1,
      cost: 30,
      elapsedMs: 5,
      log: {
        user_id: userId,
        created_at: now,
        type: 2,
        content: '',
        username: 'payer',
        token_name: 'key',
        model_name: 'gpt-4o',
        quota: 30,
        prompt_tokens: 1,
        completion_tokens: 1,
        channel_id: 1,
        request_id: requestId,
        elapsed_time: 5,
        is_stream: false,
        system_prompt_reset: false,
      },
    });
    const books = () => ({
      quota: (database.prepare('SELECT quota FROM users WHERE id = ?').get(userId) as { quota: number })
        .quota,
      logs: (database.prepare('SELECT COUNT(*) AS n FROM logs WHERE type = 2').get() as { n: number }).n,
    });

    // Committed, then retried as after a failure that followed the commit: charged once. The
    // embedded database answers a settlement at once, not as a promise.
    expect(opened.ledger.settle('holder-1', 1, [call('a')], now)).toEqual([30]);
    expect(await opened.ledger.settle('holder-1', 1, [call('a')], now, true)).toEqual([30]);
    expect(books()).toEqual({ quota: 970, logs: 1 });

    // Failed inside its transaction (the log refused), then retried: charged, once.
    database.exec(
      "CREATE TEMP TRIGGER refuse BEFORE INSERT ON logs BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    expect(() => opened.ledger.settle('holder-1', 2, [call('b')], now)).toThrow('refused');
    expect(books()).toEqual({ quota: 970, logs: 1 });
    database.exec('DROP TRIGGER refuse');
    expect(await opened.ledger.settle('holder-1', 2, [call('b')], now, true)).toEqual([30]);
    expect(books()).toEqual({ quota: 940, logs: 2 });

    // The batch's number stays in the process: the settlement writes nothing to the holder's row.
    const holder = database.prepare('SELECT settled_seq FROM quota_holders WHERE holder = ?').get('holder-1');
    expect(holder).toEqual({ settled_seq: 0 });
  });
});
