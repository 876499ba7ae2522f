// What a settlement's own JavaScript costs on PostgreSQL: the pipelined ledger (the programs, the
// statements, their text as one simple query, written by pg's own Query and Connection) over a
// connection that answers every statement at once with one row, so that neither the socket nor the
// database is measured. CPU µs and bytes
// allocated per settlement of one call (c=1) and of sixteen (a busy loop's batch), medians of 5.
// Run with a young generation large enough that a sample allocates without a collection, and with
// gc() exposed to empty it first (the npm script sets both).
import v8 from 'node:v8';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Sql } from '../../server/src/db/connect';
import { KyselyLedger } from '../../server/src/db/ledger/kysely-ledger';
import type { Settlement } from '../../server/src/db/ledger/ledger';
import { createPgScripts } from '../../server/src/db/pg-script';
import type { Database } from '../../server/src/db/schema';

const ROUNDS = 5;
const SETTLEMENTS = Number(process.env.BENCH_TRANSACTIONS ?? 20000);
const BATCHES = [1, 16];
const HOLDER = 'bench-holder';

/**
 * The driver's side of a connection: pg's own Query and Connection, writing the query as they would to
 * a socket that drops the bytes (so the driver's work is counted, the socket's is not).
 */
const socket = { writable: true, write: () => true, cork() {}, uncork() {} };
const wire = new pg.Connection({ stream: socket as never });

/** What the driver's Query does on the answers it is given. */
interface Answered {
  submit(connection: pg.Connection): void;
  handleCommandComplete(message: { text: string }, connection: pg.Connection): void;
  handleReadyForQuery(connection: pg.Connection): void;
}

/** A pool of one connection that answers each statement of a query with one row changed, at once. */
const connection = {
  query(text: string) {
    let statements = 1;
    for (let at = text.indexOf(';\n'); at !== -1; at = text.indexOf(';\n', at + 2)) statements++;
    return new Promise((resolve, reject) => {
      const query = new pg.Query(text, (error: Error | undefined, results: unknown) =>
        error ? reject(error) : resolve(results),
      ) as unknown as Answered;
      query.submit(wire);
      queueMicrotask(() => {
        for (let at = 0; at < statements; at++) query.handleCommandComplete({ text: 'UPDATE 1' }, wire);
        query.handleReadyForQuery(wire);
      });
    });
  },
  release() {},
};
const pool = { connect: async () => connection, options: { max: 1 } };
const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as never }) });
const sql: Sql = { kysely, dialect: 'postgres' };
const ledger = new KyselyLedger(sql, createPgScripts(pool as never));

const now = Math.floor(Date.now() / 1000);
let calls = 0;
const settlement = (): Settlement => ({
  holder: HOLDER,
  userId: 2,
  tokenId: 2,
  unlimitedToken: false,
  amount: 125,
  channelId: 1,
  cost: 7,
  elapsedMs: 1,
  log: {
    user_id: 2,
    created_at: now,
    type: 2,
    content: 'model ratio 0.25 × group ratio 1.00 × completion ratio 3.00',
    username: 'bench',
    token_name: 'bench',
    model_name: 'gpt-3.5-turbo',
    quota: 7,
    prompt_tokens: 12,
    completion_tokens: 5,
    channel_id: 1,
    request_id: `bench-${++calls}`,
    elapsed_time: 1,
    is_stream: false,
    system_prompt_reset: false,
    facts: '{"kind":"consume","modelRatio":0.25,"groupRatio":1,"completionRatio":3}',
  },
});

let seq = 0;
async function settle(batchSize: number, settlements: number): Promise<void> {
  for (let n = 0; n < settlements; n++) {
    const batch = Array.from({ length: batchSize }, settlement);
    await ledger.settle(HOLDER, ++seq, batch, now);
  }
}

const youngUsed = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_used_size ?? 0;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

console.log(
  `The JavaScript of a PostgreSQL settlement (pipelined, answered at once), medians of ${ROUNDS} × ${SETTLEMENTS}`,
);
console.log('batch | CPU µs a settlement | KB allocated a settlement');
for (const size of BATCHES) {
  await settle(size, SETTLEMENTS); // optimized before it is measured
  const cpu: number[] = [];
  const allocated: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Allocation measured apart, from an emptied young generation that the sample does not fill.
    const count = Math.max(1, Math.floor(SETTLEMENTS / size));
    const before = process.cpuUsage();
    await settle(size, count);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / count);
    const sample = Math.max(1, Math.min(1000, Math.floor(count / 4)));
    globalThis.gc?.();
    const young = youngUsed();
    await settle(size, sample);
    const grown = youngUsed() - young;
    if (grown > 0) allocated.push(grown / sample / 1024);
  }
  const kb = allocated.length > 0 ? median(allocated).toFixed(1) : '? (run it with --expose-gc)';
  console.log(`${size} | ${median(cpu).toFixed(1)} | ${kb}`);
}
