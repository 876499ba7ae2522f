import { type Change, LocalChangeBus } from '../change-bus';
import type { PrimaryLink } from './primary-link';

/**
 * The change bus of a worker without Redis: its own changes apply at once and go to the primary,
 * which relays them to the other workers (IPC, no network).
 */
export class IpcChangeBus extends LocalChangeBus {
  constructor(private readonly link: PrimaryLink) {
    super();
    link.onChange((change) => this.deliver(change));
  }

  override publish(change: Change): void {
    this.deliver(change);
    this.link.sendChange(change);
  }
}
