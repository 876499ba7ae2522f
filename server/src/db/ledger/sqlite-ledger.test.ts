import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POOL } from '../../config/database-pool';
import { type Db, openDatabase } from '../database';
import { migrateToLatest } from '../migrate';

describe('the embedded ledger', () => {
  let db: Db | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('waits for a database another connection holds without stopping the event loop', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-ledger-'));
    const file = path.join(dir, 'db.sqlite');
    // A driver that slept on the lock would sleep this long: far beyond what waiting on timers takes.
    db = openDatabase(
      { dialect: 'sqlite', file },
      { pool: { ...DEFAULT_POOL, sqliteBusyTimeoutMs: 10_000 } },
    );
    await migrateToLatest(db);
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
    await db.ledger.register('holder-1', Date.now() + 60_000);
    const waited = performance.now() - started;
    await released;
    expect(waited).toBeGreaterThanOrEqual(heldFor - 5);
    expect(waited).toBeLessThan(5_000);
    const row = db.sqlite!.prepare('SELECT holder FROM quota_holders WHERE holder = ?').get('holder-1');
    expect(row).toEqual({ holder: 'holder-1' });
  });
});
