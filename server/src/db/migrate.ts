import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db, Dialect } from './connect';
import { ensureSchema } from './ensure-schema';
import { rebuildLogSummaries } from './repos/log-summaries';
import type { Database } from './schema';
import { LOG_SUMMARY_TABLES, TABLES } from './table-definitions';

/** Versioned migrations. 0001 adopts an existing one-api database or creates a fresh one. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_one_api_schema': { up: (db) => ensureSchema(db, dialect, TABLES) },
    // Hourly and daily log summaries, filled from the logs already there (an adopted one-api database).
    '0002_log_summaries': {
      up: async (db) => {
        await ensureSchema(db, dialect, LOG_SUMMARY_TABLES);
        await rebuildLogSummaries({ kysely: db as Kysely<Database>, dialect });
      },
    },
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
