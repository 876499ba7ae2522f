import { CompiledQuery } from 'kysely';
import type { Sql } from '../connect';
import { outboxRows } from '../log-outbox';
import { asSummarized, summarizeLogs } from '../repos/log-summaries/buckets';
import { addLogSummaries } from '../repos/log-summaries/upserts';
import { inTransaction } from '../transaction';
import { ProgramLedger } from './program-ledger';
import type { LedgerStep, Program } from './programs';
import { ledgerStatements } from './statements';

const LOG_ROWS_PER_INSERT = 200;

function byColumns<T>(...columns: Array<keyof T>) {
  return (a: T, b: T): number => {
    for (const column of columns) {
      const [x, y] = [a[column], b[column]];
      if (x !== y) return (x as number | string) < (y as number | string) ? -1 : 1;
    }
    return 0;
  };
}

/** The ledger through Kysely: PostgreSQL and MySQL (a network round trip per statement anyway). */
export class KyselyLedger extends ProgramLedger {
  constructor(private readonly db: Sql) {
    super();
  }

  async #step(tx: Sql, step: LedgerStep): Promise<unknown> {
    if (step.kind === 'logs' && this.db.logOutbox) {
      for (const rows of outboxRows(step.logs, LOG_ROWS_PER_INSERT))
        await tx.kysely.insertInto('log_outbox').values(rows).execute();
      return undefined;
    }
    if (step.kind === 'logs') {
      for (let start = 0; start < step.logs.length; start += LOG_ROWS_PER_INSERT) {
        await tx.kysely
          .insertInto('logs')
          .values(asSummarized(step.logs.slice(start, start + LOG_ROWS_PER_INSERT)))
          .execute();
      }
      // Upserted in key order, like every other row the ledger locks (see programs.ts).
      const { hourly, daily } = summarizeLogs(step.logs);
      await addLogSummaries(tx, {
        hourly: hourly.sort(
          byColumns('bucket', 'type', 'user_id', 'username', 'token_name', 'model_name', 'channel_id'),
        ),
        daily: daily.sort(byColumns('bucket', 'type', 'model_name', 'channel_id')),
      });
      return undefined;
    }
    const sql = ledgerStatements(this.db.dialect)[step.statement];
    const result = await tx.kysely.executeQuery(CompiledQuery.raw(sql, step.params));
    if (step.kind === 'run') return Number(result.numAffectedRows ?? 0);
    if (step.kind === 'get') return result.rows[0];
    return result.rows;
  }

  protected execute<T>(program: () => Program<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      const steps = program();
      let next = steps.next();
      while (!next.done) next = steps.next(await this.#step(tx, next.value));
      return next.value;
    });
  }
}
