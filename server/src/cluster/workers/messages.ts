import type { CodePurpose } from '../../domain/verification-codes';
import type { Change } from '../change-bus';

/** The rate limit rules, whose counts the primary keeps for every worker. */
export type LimitRule = 'critical' | 'api' | 'web';

/** What a worker asks of the state the primary keeps for all workers (without Redis). */
export type SharedCall =
  | { op: 'allow'; rule: LimitRule; key: string }
  | { op: 'issue'; purpose: CodePurpose; email: string; length?: number }
  | { op: 'verify' | 'redeem'; purpose: CodePurpose; email: string; code: string }
  | { op: 'discard'; purpose: CodePurpose; email: string }
  /** Every worker's metrics added up, in Prometheus's text format (METRICS_TOKEN). */
  | { op: 'metrics' }
  /** A key limit's counter (key-counters.ts), kept by the primary for every worker. */
  | { op: 'counter'; method: CounterMethod; args: Array<string | number> };

export type CounterMethod = 'takeRequest' | 'takeTokens' | 'adjustTokens' | 'acquireSlot' | 'releaseSlot';

/** Worker → primary. Every message of ours carries `switchyard`, so Node's own cluster messages are told apart. */
export type WorkerMessage =
  /** A change this worker made, numbered so that the primary can say when every other worker applied it. */
  | { switchyard: 'change'; change: Change; seq: number }
  /** This worker applied the change the primary relayed under `relay`. */
  | { switchyard: 'applied'; relay: number }
  | { switchyard: 'call'; id: number; call: SharedCall };

/** Primary → worker. */
export type PrimaryMessage =
  | { switchyard: 'change'; change: Change; relay: number }
  /** Every other worker applied this worker's change `seq` (or died meanwhile). */
  | { switchyard: 'relayed'; seq: number }
  | { switchyard: 'answer'; id: number; value?: unknown; error?: string };

export function isOurs<T extends { switchyard: string }>(message: unknown): message is T {
  return typeof message === 'object' && message !== null && 'switchyard' in message;
}
