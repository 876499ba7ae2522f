import { DomainError } from './errors';

/**
 * The one check of a text field against the column that stores it (the limits live in the contract,
 * beside the form rules, and the table definitions use the same constants). PostgreSQL and MariaDB
 * refuse a longer value, which would surface as a 500; SQLite would silently keep it. Check the value
 * as it will be stored, after trimming and normalising lists.
 */
export function checkedLength(value: string, max: number, what: string): string {
  if (value.length > max) throw new DomainError(`${what} must be at most ${max} characters`);
  return value;
}
