import { type Cidr, parseSubnetList } from '@switchyard/contract/subnet';
import { splitList } from '@switchyard/contract/tokens';
import type { Sql } from '../../db/connect';
import { withinDeadline } from '../../db/deadline';
import { findTokenByKey } from '../../db/repos/tokens';
import { findUserById } from '../../db/repos/users';
import type { TokenRow, UserRow } from '../../db/schema';
import { type MaybePromise, whenReady } from '../../maybe-promise';
import { TtlCache } from '../ttl-cache';

export interface CachedToken {
  row: TokenRow;
  models: Set<string> | undefined;
  subnets: Cidr[];
}

/**
 * Tokens and users as the relay reads them: from memory, re-read every few seconds (in the background
 * while a busy one is still served), and dropped at once when this process changes them. Quota is
 * never trusted from here: spending is guarded in SQL.
 */
export class IdentityCache {
  readonly #tokens: TtlCache<string, CachedToken | null>;
  readonly #users: TtlCache<number, UserRow | null>;

  constructor(
    private readonly db: Sql,
    /** How long a read may wait for the database (relayDatabaseWaitMs). */
    private readonly waitMs: number,
    clock: () => number = () => Date.now(),
    ttlMs = 10_000,
  ) {
    this.#tokens = new TtlCache(ttlMs, undefined, clock);
    this.#users = new TtlCache(ttlMs, undefined, clock);
  }

  /** From memory at once; read from the database (a promise) when not there. */
  token(key: string): MaybePromise<CachedToken | undefined> {
    return whenReady(this.#tokens.read(key, this.#readToken), orUndefined);
  }

  /** From memory at once; read from the database (a promise) when not there. */
  user(id: number): MaybePromise<UserRow | undefined> {
    return whenReady(this.#users.read(id, this.#readUser), orUndefined);
  }

  readonly #readToken = async (key: string): Promise<CachedToken | null> => {
    const row = await withinDeadline(findTokenByKey(this.db, key), this.waitMs);
    return row ? toCachedToken(row) : null;
  };

  readonly #readUser = async (id: number): Promise<UserRow | null> =>
    (await withinDeadline(findUserById(this.db, id), this.waitMs)) ?? null;

  tokenChanged(key: string): void {
    this.#tokens.delete(key);
  }

  userChanged(id: number): void {
    this.#users.delete(id);
  }

  /** Changes may have been missed: everything is read again. */
  clear(): void {
    this.#tokens.clear();
    this.#users.clear();
  }
}

/** A row known to be missing (cached as null) is answered as none. */
const orUndefined = <T>(value: T | null): T | undefined => value ?? undefined;

function toCachedToken(row: TokenRow): CachedToken {
  const models = splitList(row.models);
  const subnets = parseSubnetList(row.subnet ?? '');
  return {
    row,
    models: models.length > 0 ? new Set(models) : undefined,
    subnets: 'cidrs' in subnets ? subnets.cidrs : [],
  };
}
