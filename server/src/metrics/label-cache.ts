type Key = string | number;
type Level = Map<Key, unknown>;

/** The map under `key` in `level`, made when missing. */
function inner(level: Level, key: Key): Level {
  let next = level.get(key) as Level | undefined;
  if (!next) {
    next = new Map();
    level.set(key, next);
  }
  return next;
}

/**
 * prom-client's `labels()` hashes its values into a string on every call. On the hot path a metric's
 * children are found here instead: nested maps keyed by the values themselves, so a lookup allocates
 * nothing once a combination has been seen. Every lookup of one cache passes the same number of values.
 */
export class LabelCache<Child> {
  readonly #root: Level = new Map();

  constructor(private readonly create: (...values: string[]) => Child) {}

  one(a: Key): Child {
    const child = this.#root.get(a) as Child | undefined;
    if (child !== undefined) return child;
    const made = this.create(String(a));
    this.#root.set(a, made);
    return made;
  }

  two(a: Key, b: Key): Child {
    const level = inner(this.#root, a);
    const child = level.get(b) as Child | undefined;
    if (child !== undefined) return child;
    const made = this.create(String(a), String(b));
    level.set(b, made);
    return made;
  }

  four(a: Key, b: Key, c: Key, d: Key): Child {
    const level = inner(inner(inner(this.#root, a), b), c);
    const child = level.get(d) as Child | undefined;
    if (child !== undefined) return child;
    const made = this.create(String(a), String(b), String(c), String(d));
    level.set(d, made);
    return made;
  }
}
