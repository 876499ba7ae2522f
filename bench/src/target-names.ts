// The names the benchmark's tables give what it measures: shared by the servers it starts and the report.
import type { BenchDatabase } from './settings';

export const DIRECT = 'direct';
export const BARE = 'bare proxy';

export const gatewayName = (database: BenchDatabase) => `gateway ${database}`;
export const floorName = (database: BenchDatabase) =>
  `ledger floor ${database === 'sqlite' ? 'SQLite' : 'PG'}`;

/** The ledger floor on the database of a target named by gatewayName, if it is one. */
export function floorFor(target: string): string | undefined {
  if (target === gatewayName('sqlite')) return floorName('sqlite');
  if (target === gatewayName('postgres')) return floorName('postgres');
  return undefined;
}
