/** An entry is read again in the background once this share of its life has passed (see `read`). */
const REFRESH_AT = 0.8;

interface Entry<V> {
  value: V;
  expiresAt: number;
  refreshAt: number;
}

/** A small map whose entries expire, so rows read on the hot path are re-read now and then. */
export class TtlCache<K, V> {
  readonly #entries = new Map<K, Entry<V>>();
  /** Reads under way, by key: every caller that misses meanwhile waits for the same one. */
  readonly #reading = new Map<K, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 100_000,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  get(key: K, now = this.clock()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V, now = this.clock()): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, expiresAt: now + this.ttlMs, refreshAt: now + this.ttlMs * REFRESH_AT });
  }

  /**
   * The key's value, read by `load` when it is not here: one read however many callers miss at once
   * (a busy key expiring must not send every call in flight to the database). An entry in the last
   * part of its life is read again in the background while it is still served, so a busy key does
   * not expire at all; a background read that fails leaves the entry to expire as it would have.
   */
  read(key: K, load: (key: K) => Promise<V>): V | Promise<V> {
    const now = this.clock();
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > now) {
      if (entry.refreshAt <= now && !this.#reading.has(key)) this.#load(key, load).catch(() => {});
      return entry.value;
    }
    return this.#reading.get(key) ?? this.#load(key, load);
  }

  #load(key: K, load: (key: K) => Promise<V>): Promise<V> {
    const reading: Promise<V> = load(key)
      .then((value) => {
        // Deleted meanwhile (the row changed): what was read may be older than the change.
        if (this.#reading.get(key) === reading) this.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.#reading.get(key) === reading) this.#reading.delete(key);
      });
    this.#reading.set(key, reading);
    return reading;
  }

  delete(key: K): void {
    this.#entries.delete(key);
    this.#reading.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#reading.clear();
  }
}
