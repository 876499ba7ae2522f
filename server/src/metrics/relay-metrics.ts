/** How a relay call ended, as counted by `switchyard_relay_requests_total{outcome}`. */
export type RelayOutcome =
  /** Answered whole. */
  | 'success'
  /** Answered in part: a stream broke off, was ended for quota, or the client left. */
  | 'incomplete'
  /** Refused by the gateway before any upstream answered (key, model, quota, bad request). */
  | 'refused'
  /** Every channel tried failed before anything reached the client. */
  | 'upstream_error'
  /** The client left before an answer began. */
  | 'client_closed'
  /** A bug of ours. */
  | 'error';

/**
 * What the relay tells the metrics, on the hot path: label lookups and additions only. Absent when
 * METRICS_TOKEN is unset, so a server without metrics pays nothing.
 */
export interface RelayMetrics {
  /** One relay call ended; `model` and `channelId` are '' and 0 when no channel was chosen. */
  callEnded(endpoint: string, model: string, channelId: number, outcome: RelayOutcome): void;
  /**
   * An upstream's answer head arrived `sentAt` → now (performance.now() milliseconds). `callStartedAt`
   * is set on a call's first attempt: the time before it went out is what the gateway added.
   */
  upstreamAnswered(
    endpoint: string,
    channelId: number,
    sentAt: number,
    callStartedAt: number | undefined,
  ): void;
  /** A failed attempt on `channelId` is retried on another channel. */
  retried(channelId: number): void;
  /** A settled call's tokens and quota. */
  settled(model: string, promptTokens: number, completionTokens: number, quota: number): void;
  channelAutoDisabled(channelId: number): void;
}
