import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { Dialect } from './connect';
import type { Db } from './database';
import { ensureSchema } from './ensure-schema';
import { createUnsummarizedIndex } from './repos/log-summaries/catch-up';
import { rebuildLogSummaries } from './repos/log-summaries/rebuild';
import { createFoldMark, createSummaryState } from './repos/log-summaries/state';
import type { Database } from './schema';
import {
  AUDIT_TABLES,
  LEDGER_TABLES,
  LOG_SUMMARY_MARK_TABLES,
  LOG_SUMMARY_TABLES,
  PAYMENT_ORDER_TABLES,
  TABLES,
  TWO_FACTOR_TABLES,
  VIDEO_JOB_TABLES,
} from './table-definitions';

/** Versioned migrations. 0001 adopts an existing one-api database or creates a fresh one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_one_api_schema': { up: (db) => ensureSchema(db, dialect, TABLES) },
    // Hourly and daily log summaries; 0004, which always runs after it, fills them.
    '0002_log_summaries': { up: (db) => ensureSchema(db, dialect, LOG_SUMMARY_TABLES) },
    // Held quota on users and keys, and the holders that hold it (see db/ledger).
    '0003_quota_holds': { up: (db) => ensureSchema(db, dialect, [...TABLES, ...LEDGER_TABLES]) },
    // Which logs the summaries hold, so that logs another program writes are caught up; the summaries
    // are (re)built from the logs already there (an adopted one-api database, or rows one-api wrote).
    '0004_log_summary_marks': {
      up: async (db) => {
        await ensureSchema(db, dialect, LOG_SUMMARY_MARK_TABLES);
        await createUnsummarizedIndex(db, dialect);
        const typed = { kysely: db as Kysely<Database>, dialect };
        await createSummaryState(typed);
        await rebuildLogSummaries(typed);
      },
    },
    // The users' session epoch, so that sessions can be ended before their cookie expires.
    '0005_session_epoch': { up: (db) => ensureSchema(db, dialect, TABLES) },
    '0006_channel_test_error': { up: (db) => ensureSchema(db, dialect, TABLES) },
    // The facts of each log line, so that the console can say it in its language.
    '0007_log_facts': { up: (db) => ensureSchema(db, dialect, TABLES) },
    // The audit log of console changes and sign-ins (a table of its own).
    '0008_audit_logs': { up: (db) => ensureSchema(db, dialect, AUDIT_TABLES) },
    // Rate limits on keys and users, and the keys' periodic budgets (nullable columns).
    '0009_key_limits': { up: (db) => ensureSchema(db, dialect, TABLES) },
    // Video generation jobs: who asked for which upstream job, and the quota held for it.
    '0010_video_jobs': { up: (db) => ensureSchema(db, dialect, VIDEO_JOB_TABLES) },
    // Online top-up orders: each payment's state, so that it credits exactly once.
    '0011_payment_orders': { up: (db) => ensureSchema(db, dialect, PAYMENT_ORDER_TABLES) },
    // Two-factor sign-in: each user's TOTP secret, recovery codes and attempt count, and passkeys.
    '0012_two_factor': { up: (db) => ensureSchema(db, dialect, TWO_FACTOR_TABLES) },
    // The subject of a user's OpenID Connect account (users.oidc_subject, indexed).
    '0013_oidc': { up: (db) => ensureSchema(db, dialect, TABLES) },
    // Video jobs are charged on their row (billing 'charged'); a job of the in-process holds before
    // paid nothing that survived the restart that runs this, so it is no longer followed or billed.
    '0014_video_job_charges': {
      up: async (db) => {
        await db
          .updateTable('video_jobs')
          .set({ billing: 'unbilled' })
          .where('billing', 'in', ['held', 'settling'])
          .execute();
      },
    },
    // The mark of the logs the ledger leaves to a fold (log-summaries/fold.ts).
    '0015_log_summary_fold': { up: (db) => createFoldMark({ kysely: db as Kysely<Database>, dialect }) },
  };
}

class InCodeMigrations implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect);
  }
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db: db.kysely as Kysely<Database>,
    provider: new InCodeMigrations(db.dialect),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

/** How many migrations this version knows that the database has not run (readiness). */
export async function pendingMigrations(db: Pick<Db, 'kysely' | 'dialect'>): Promise<number> {
  const migrator = new Migrator({
    db: db.kysely as Kysely<Database>,
    provider: new InCodeMigrations(db.dialect),
  });
  const known = await migrator.getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).length;
}
