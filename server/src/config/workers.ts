import { availableParallelism } from 'node:os';
import { type Env, fail } from './env';

/** More would be a typo rather than a machine: each worker is a whole server process. */
const MOST_WORKERS = 256;

/** WORKERS: how many server processes share the port; `auto` is one per core. Default 1 (no cluster). */
export function readWorkers(env: Env, cores: number = availableParallelism()): number {
  const raw = env.WORKERS?.trim();
  if (!raw) return 1;
  if (raw.toLowerCase() === 'auto') return Math.min(cores, MOST_WORKERS);
  const count = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(count >= 1 && count <= MOST_WORKERS)) {
    fail('WORKERS', `expected auto or a whole number from 1 to ${MOST_WORKERS}, got "${raw}"`);
  }
  return count;
}
