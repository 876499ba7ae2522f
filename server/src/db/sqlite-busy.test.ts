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

  /** Counts the event loop's turns while `work` runs: a driver sleeping on the lock would allow none. */
  async function ticksDuring<T>(work: () => Promise<T>) {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = performance.now();
    try {
      const outcome = await work().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      return { ...outcome, ticks, waited: performance.now() - started };
    } finally {
      clearInterval(ticker);
    }
  }

  it('a write waits for it on timers, then goes through once it is free', async () => {
    const { db, other } = await heldDatabase(5_000);
    const heldFor = 150;
    setTimeout(() => other.exec('COMMIT'), heldFor);
    const write = await ticksDuring(() =>
      sql`INSERT INTO options (key, value) VALUES ('BusyProbe', 'written')`.execute(db.kysely),
    );
    expect(write).not.toHaveProperty('error');
    expect(write.waited).toBeGreaterThanOrEqual(heldFor - 5);
    expect(write.ticks).toBeGreaterThanOrEqual(5);
    const row = await db.kysely
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'BusyProbe')
      .executeTakeFirst();
    expect(row).toEqual({ value: 'written' });
  });

  it('a write gives up with SQLITE_BUSY after SQLITE_BUSY_TIMEOUT, the loop running all along', async () => {
    const { db } = await heldDatabase(200);
    const write = await ticksDuring(() =>
      sql`INSERT INTO options (key, value) VALUES ('BusyProbe', 'never')`.execute(db.kysely),
    );
    expect(write).toHaveProperty('error.code', 'SQLITE_BUSY');
    expect(write.waited).toBeGreaterThanOrEqual(195);
    expect(write.ticks).toBeGreaterThanOrEqual(10);
  });

  it('the ledger gives up the same way', async () => {
    const { db } = await heldDatabase(200);
    const register = await ticksDuring(() => db.ledger.register('holder-busy', Date.now() + 60_000));
    expect(register).toHaveProperty('error.code', 'SQLITE_BUSY');
    expect(register.waited).toBeGreaterThanOrEqual(195);
    expect(register.ticks).toBeGreaterThanOrEqual(10);
  });
});
