/**
 * Says when the client went away: the part of AbortSignal the relay uses (an AbortSignal is one).
 * The caller's response makes a `ClientGone` instead: an AbortController costs several
 * microseconds per call to make and to listen to.
 */
export interface ClientSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A ClientSignal raised once by `abort`; its listeners run then, once each. */
export class ClientGone implements ClientSignal {
  aborted = false;
  #listeners: Array<() => void> = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}
