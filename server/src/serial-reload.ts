/**
 * Something read again from the database when asked, one read at a time. `fresh()` resolves once a
 * read begun after the last `invalidate()` has finished (at once when none was asked for since).
 * Reads never overlap: two at once may be answered in either order, and the older one, applied last,
 * would put back what the newer one replaced. A read that fails rejects its callers; the next
 * `invalidate()` reads again.
 */
export class SerialReload {
  #stale = true;
  #loading: Promise<void> | undefined;

  constructor(private readonly load: () => Promise<void>) {}

  /** No read asked for and none running: what was read last is current (checked without waiting). */
  get current(): boolean {
    return !this.#stale && this.#loading === undefined;
  }

  invalidate(): void {
    this.#stale = true;
  }

  async fresh(): Promise<void> {
    while (this.#stale || this.#loading) {
      if (!this.#loading) {
        this.#stale = false;
        this.#loading = this.load().finally(() => {
          this.#loading = undefined;
        });
      }
      await this.#loading;
    }
  }
}
