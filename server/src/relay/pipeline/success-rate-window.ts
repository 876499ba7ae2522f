/**
 * one-api's channel success-rate monitor (ENABLE_METRIC): the outcomes of each channel's last
 * `queueSize` relayed calls in a ring buffer, in this process's memory. A failure that leaves the
 * window full with a success rate under the threshold trips it: the window starts over and the rate
 * is answered, for the channel to be disabled. Recording costs a few array writes, no allocation.
 */
export class SuccessRateWindow {
  readonly #windows = new Map<
    number,
    { outcomes: Uint8Array; next: number; filled: number; successes: number }
  >();

  constructor(readonly settings: { queueSize: number; successRateThreshold: number }) {}

  succeeded(channelId: number): void {
    this.#record(channelId, 1);
  }

  /** The success rate when this failure trips the monitor; undefined otherwise. */
  failed(channelId: number): number | undefined {
    const window = this.#record(channelId, 0);
    if (window.filled < this.settings.queueSize) return undefined;
    const rate = window.successes / window.filled;
    if (rate >= this.settings.successRateThreshold) return undefined;
    this.#windows.delete(channelId);
    return rate;
  }

  #record(channelId: number, outcome: 0 | 1) {
    let window = this.#windows.get(channelId);
    if (!window) {
      window = { outcomes: new Uint8Array(this.settings.queueSize), next: 0, filled: 0, successes: 0 };
      this.#windows.set(channelId, window);
    }
    if (window.filled === window.outcomes.length) window.successes -= window.outcomes[window.next] ?? 0;
    else window.filled += 1;
    window.outcomes[window.next] = outcome;
    window.successes += outcome;
    window.next = (window.next + 1) % window.outcomes.length;
    return window;
  }
}
