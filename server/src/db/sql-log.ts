import type { LogEvent } from 'kysely';

/** What DEBUG_SQL writes for each statement. */
export type SqlLogger = (fields: { sql: string; params: unknown[]; ms: number; failed?: string }) => void;

/**
 * A parameter as the log shows it: numbers, booleans and null as they are, every string masked to its
 * length (a password hash, a channel key or a session may be any of them).
 */
export function maskParameter(value: unknown): unknown {
  if (
    value === null ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  ) {
    return typeof value === 'bigint' ? value.toString() : value;
  }
  if (typeof value === 'string') return `<string ${value.length}>`;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `<bytes ${value.length}>`;
  return '<value>';
}

/** Kysely's log hook for DEBUG_SQL: every statement with its masked parameters and its time. */
export function sqlLog(write: SqlLogger): (event: LogEvent) => void {
  return (event) => {
    write({
      sql: event.query.sql,
      params: event.query.parameters.map(maskParameter),
      ms: Math.round(event.queryDurationMillis * 10) / 10,
      ...(event.level === 'error' ? { failed: String((event.error as Error)?.message ?? event.error) } : {}),
    });
  };
}
