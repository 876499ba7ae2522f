import type { Usage } from '../adaptors/types';
import type { RelayError } from '../errors';
import type { StreamSpendWatch } from './spending-limit';

/** What one attempt on one channel ended with (attempt.ts), streamed or not (stream.ts). */
export type AttemptResult =
  | ({ ok: true } & Outcome)
  | {
      ok: false;
      error: RelayError /** Bytes already reached the client: no retry is possible. */;
      started: boolean;
    };

/** What a successful attempt delivered, to bill it. */
export interface Outcome {
  /** As the provider reported it; undefined when it did not. */
  usage: Usage | undefined;
  /** The generated text; read only when it must be counted (it may cost a parse). */
  text: () => string;
  /** False when a stream broke off, was ended for quota, or the client left before the provider said it was over. */
  complete: boolean;
}

export interface AttemptHooks {
  finish?: (outcome: Outcome) => Promise<void>;
  watch?: StreamSpendWatch;
  /** The call's start (performance.now()) on its first attempt, for the gateway's added latency. */
  callStartedAt?: number;
}
