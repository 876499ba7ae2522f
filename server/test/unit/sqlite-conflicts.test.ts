import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { inTransaction } from '../../src/db/transaction';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-conflicts-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("runs again a SQLite transaction whose snapshot another connection's commit made stale (SQLITE_BUSY_SNAPSHOT)", async () => {
  // Two connections to one file, as two worker processes (WORKERS) have.
  const target = { dialect: 'sqlite' as const, file: path.join(dir, 'shared.db') };
  const one = openDatabase(target);
  const other = openDatabase(target);
  try {
    await sql`create table counted (n integer)`.execute(one.kysely);
    let attempts = 0;
    await inTransaction(one, async (tx) => {
      attempts++;
      // A deferred transaction reads first; the other connection commits meanwhile (the first time).
      await sql`select count(*) from counted`.execute(tx.kysely);
      if (attempts === 1) await sql`insert into counted values (1)`.execute(other.kysely);
      await sql`insert into counted values (2)`.execute(tx.kysely);
    });
    expect(attempts).toBe(2);
    const { rows } = await sql<{ n: number }>`select n from counted order by n`.execute(one.kysely);
    expect(rows.map((row) => row.n)).toEqual([1, 2]);
  } finally {
    await one.close();
    await other.close();
  }
});
