import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connection, openConnection } from './connect';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from './sqlite-checkpointer';

/** The WAL header's checkpoint sequence: it grows each time a writer starts the WAL over. */
function walRestarts(file: string): number {
  const header = Buffer.alloc(16);
  const fd = fs.openSync(`${file}-wal`, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  return header.readUInt32BE(12);
}

describe('SQLite checkpoints', () => {
  let connection: Connection | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await connection?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('happen off the writer: the WAL is copied back and started over without a commit doing it', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-checkpoint-'));
    const file = path.join(dir, 'db.sqlite');
    connection = openConnection({ dialect: 'sqlite', file });
    const { kysely } = connection;
    await sql`create table rows (id integer primary key, text text)`.execute(kysely);
    // Far fewer pages than any automatic checkpoint waits for: only another connection copies them.
    for (let batch = 0; batch < 20; batch++) {
      await sql`insert into rows (text) values (${'x'.repeat(3000)}), (${'y'.repeat(3000)})`.execute(kysely);
    }
    const before = walRestarts(file);
    expect(connection.sqlite!.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(1000);

    // Once the checkpointer has copied everything, the next commit starts the WAL over.
    await expect
      .poll(
        async () => {
          await sql`insert into rows (text) values ('z')`.execute(kysely);
          return walRestarts(file);
        },
        { timeout: 5_000, interval: 150 },
      )
      .toBeGreaterThan(before);
  });

  it('end with the connection: once it is closed, nothing holds the database or its WAL', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-checkpoint-'));
    const file = path.join(dir, 'db.sqlite');
    const closing = openConnection({ dialect: 'sqlite', file });
    // Used without Kysely, which then never opened (nor closes) its own side.
    closing.sqlite!.exec('create table rows (id integer primary key)');
    await closing.close();
    // The last connection to close removes the WAL and its index: the checkpointer's was closed too.
    expect(fs.readdirSync(dir)).toEqual(['db.sqlite']);
  });

  it('keep the WAL well under the size where the writer checkpoints itself, while commits never stop', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-checkpoint-'));
    const file = path.join(dir, 'db.sqlite');
    connection = openConnection({ dialect: 'sqlite', file });
    const database = connection.sqlite!;
    database.exec('create table rows (id integer primary key, text text)');
    const insert = database.prepare('insert into rows (text) values (?)');
    const commit = database.transaction(() => insert.run('x'.repeat(3_000)));
    const pageSize = Number(database.pragma('page_size', { simple: true }));
    // A commit of a page or two a millisecond (about what a busy gateway writes) for 4 s: the WAL
    // always has frames the checkpointer has not copied yet, and would reach the fallback by far.
    let largestWal = 0;
    const until = Date.now() + 4_000;
    while (Date.now() < until) {
      commit();
      largestWal = Math.max(largestWal, fs.statSync(`${file}-wal`).size);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // Without the checkpointer starting the WAL over, it grows to the fallback before the writer does.
    expect(largestWal / pageSize).toBeLessThan(FALLBACK_AUTOCHECKPOINT_PAGES * 0.9);
  });
});
