import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POOL } from '../config/database-pool';
import { type Db, openDatabase } from './database';
import { migrateToLatest } from './migrate';

describe('the embedded database while another connection holds it', () => {
  let db: Db | undefined;
  let other: Database.Database | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (other?.open) other.close();
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The database, migrated, and another connection holding its write lock (a checkpoint, another process). */
  async function heldDatabase(waitMs: number) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-busy-'));
    const file = path.join(dir, 'db.sqlite');
    db = openDatabase(
      { dialect: 'sqlite', file },
      { pool: { ...DEFAULT_POOL, sqliteBusyTimeoutMs: waitMs } },
    );
    await migrateToLatest(db);
    other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    return { db, other };
  }

  /**
   * Runs `work`, and whether the event loop turned before it settled: a driver sleeping on the lock
   * would settle it (in microtasks) before the loop could run anything scheduled after it began.
   */
  async function whileWaiting<T>(work: () => Promise<T>) {
    let loopTurned = false;
    const started = performance.now();
    const settled = work().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    setImmediate(() => {
      loopTurned = true;
    });
    const outcome = await settled;
    return { ...outcome, loopTurned, waited: performance.now() - started };
  }

  it('a write waits for it on timers, then goes through once it is free', async () => {
    const { db, other } = await heldDatabase(5_000);
    const heldFor = 150;
    setTimeout(() => other.exec('COMMIT'), heldFor);
    const write = await whileWaiting(() =>
      sql`INSERT INTO options (key, value) VALUES ('BusyProbe', 'written')`.execute(db.kysely),
    );
    expect(write).not.toHaveProperty('error');
    expect(write.waited).toBeGreaterThanOrEqual(heldFor - 5);
    expect(write.loopTurned).toBe(true);
    const row = await db.kysely
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'BusyProbe')
      .executeTakeFirst();
    expect(row).toEqual({ value: 'written' });
  });

  it('a write gives up with SQLITE_BUSY after SQLITE_BUSY_TIMEOUT, the loop running all along', async () => {
    const { db } = await heldDatabase(200);
    const write = await whileWaiting(() =>
      sql`INSERT INTO options (key, value) VALUES ('BusyProbe', 'never')`.execute(db.kysely),
    );
    expect(write).toHaveProperty('error.code', 'SQLITE_BUSY');
    expect(write.waited).toBeGreaterThanOrEqual(195);
    expect(write.loopTurned).toBe(true);
  });

  it('the ledger gives up the same way', async () => {
    const { db } = await heldDatabase(200);
    const register = await whileWaiting(() => db.ledger.register('holder-busy', Date.now() + 60_000));
    expect(register).toHaveProperty('error.code', 'SQLITE_BUSY');
    expect(register.waited).toBeGreaterThanOrEqual(195);
    expect(register.loopTurned).toBe(true);
  });
});
