import { type Env, readInteger } from './env';
import { readFlag } from './operations';

const MB = 1024 * 1024;

/** The Realtime API's sessions (/v1/realtime): their limits, and whether ephemeral keys are relayed. */
export interface RealtimeSettings {
  /** Largest WebSocket message either side may send, in bytes (REALTIME_MESSAGE_LIMIT MB). */
  realtimeMessageLimit: number;
  /** A session where neither side sent anything for this long is closed (REALTIME_IDLE_TIMEOUT seconds). */
  realtimeIdleMs: number;
  /** A session is closed this long after it opened, whatever it does (REALTIME_SESSION_LIMIT seconds). */
  realtimeSessionMs: number;
  /**
   * REALTIME_EPHEMERAL_KEYS: relay /v1/realtime/sessions and /v1/realtime/client_secrets. Off by
   * default: a client talks to the provider directly with the key they mint, unbilled by the gateway.
   */
  realtimeEphemeralKeys: boolean;
}

export function readRealtimeSettings(env: Env): RealtimeSettings {
  return {
    // OpenAI takes audio appends of up to 15 MiB.
    realtimeMessageLimit: readInteger(env, 'REALTIME_MESSAGE_LIMIT', 16, 1, 256) * MB,
    realtimeIdleMs: readInteger(env, 'REALTIME_IDLE_TIMEOUT', 600, 1, 86400) * 1000,
    // OpenAI ends a session after 60 minutes.
    realtimeSessionMs: readInteger(env, 'REALTIME_SESSION_LIMIT', 3600, 1, 86400) * 1000,
    realtimeEphemeralKeys: readFlag(env, 'REALTIME_EPHEMERAL_KEYS'),
  };
}
