import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Sql } from './connect';
import type { Database } from './schema';

const SENTINEL_BASE = -987_654_321_000;

/**
 * A hot-path query built with Kysely once (per dialect) and then run with new numbers bound into
 * the same SQL: the relay pays for the statement, not for building it on every call.
 * `build` receives one number per argument; every argument must appear as a bound parameter.
 */
export class Precompiled<A extends number[]> {
  readonly #templates = new Map<string, { compiled: CompiledQuery; slots: Array<number | undefined> }>();

  constructor(
    private readonly arity: A['length'],
    private readonly build: (kysely: Kysely<Database>, ...args: A) => Compilable<unknown>,
  ) {}

  run(db: Sql, ...args: A): Promise<QueryResult<unknown>> {
    const { compiled, slots } = this.#template(db);
    const parameters = compiled.parameters.map((value, index) => {
      const slot = slots[index];
      return slot === undefined ? value : args[slot];
    });
    return db.kysely.executeQuery({ ...compiled, parameters });
  }

  #template(db: Sql) {
    let template = this.#templates.get(db.dialect);
    if (!template) {
      const sentinels = Array.from({ length: this.arity }, (_, index) => SENTINEL_BASE - index) as A;
      const compiled = this.build(db.kysely, ...sentinels).compile();
      const slots = compiled.parameters.map((value) => {
        const index = sentinels.indexOf(value as number);
        return index === -1 ? undefined : index;
      });
      if (new Set(slots.filter((slot) => slot !== undefined)).size !== this.arity) {
        throw new Error('a precompiled query must bind every argument as a parameter');
      }
      template = { compiled, slots };
      this.#templates.set(db.dialect, template);
    }
    return template;
  }
}
