import { type Change, LocalChangeBus } from '../change-bus';
import type { PrimaryLink } from './primary-link';

/**
 * The change bus of a worker without Redis: its own changes apply at once and go to the primary,
 * which relays them to the other workers (IPC, no network) and says when all of them applied them.
 */
export class IpcChangeBus extends LocalChangeBus {
  readonly #spreading = new Set<Promise<void>>();

  constructor(private readonly link: PrimaryLink) {
    super();
    link.onChange(async (change) => {
      await Promise.allSettled(this.handlers.map(async (handler) => handler(change)));
    });
  }

  override publish(change: Change): void {
    this.deliver(change);
    const spread = this.link.sendChange(change);
    this.#spreading.add(spread);
    void spread.finally(() => this.#spreading.delete(spread));
  }

  /**
   * Resolves once every change this worker published so far is applied by the other workers: an
   * answer that waits for it is followed by calls that see the change, whichever worker takes them.
   */
  async spread(): Promise<void> {
    if (this.#spreading.size > 0) await Promise.all(this.#spreading);
  }
}
