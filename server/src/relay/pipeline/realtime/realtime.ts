import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import type { ChannelRow } from '../../../db/schema';
import type { Billing } from '../../../domain/billing';
import type { OptionsStore } from '../../../domain/options';
import {
  type EphemeralKeyKind,
  ephemeralKeyEndpoint,
  realtimeSocketEndpoint,
  speaksRealtime,
} from '../../adaptors/realtime/endpoints';
import { openRealtimeSocket } from '../../adaptors/realtime/upstream-socket';
import { upstreamError } from '../../adaptors/upstream-error';
import { ClientGone } from '../../client-signal';
import { isRetryable, RelayError } from '../../errors';
import { asObject } from '../../json-value';
import type { UpstreamClient } from '../../upstream';
import { checkModelAllowed, type RelayCaller } from '../authenticate';
import type { ChannelRouter } from '../channel-router';
import type { ClientSink } from '../client-sink';
import type { KeyLimits } from '../key-limits';
import { modelMappingOf } from '../model-mapping';
import { firstChannel } from '../route';
import type { TokenCounter } from '../tokenizer';
import { errorEvent, RealtimeSession } from './session';
import { SESSION_HOLD_OUTPUT_TOKENS, SessionFunds } from './session-funds';

/** REALTIME_* settings (config/realtime.ts) and RELAY_CONNECT_TIMEOUT. */
export interface RealtimeSettings {
  messageLimit: number;
  idleMs: number;
  sessionMs: number;
  connectMs: number;
  ephemeralKeys: boolean;
}

export interface RealtimeDeps {
  router: ChannelRouter;
  billing: Billing;
  options: OptionsStore;
  counter: TokenCounter;
  upstream: UpstreamClient;
  limits?: KeyLimits;
  logger?: FastifyBaseLogger;
  settings: RealtimeSettings;
}

/** What a client asks of /v1/realtime: the model (Azure's clients may say `deployment`) and the interface. */
export interface RealtimeRequest {
  requestId: string;
  model: string;
  /** The client asked for the beta interface (`OpenAI-Beta: realtime=v1`). */
  beta: boolean;
}

/** A session whose checks passed and whose provider socket is open, waiting for the client's upgrade. */
export interface PendingSession {
  /** Runs the session over the client's socket; resolves when it has ended and its money is settled. */
  start(client: WebSocket): Promise<void>;
  /** The client's upgrade failed: the provider's socket is closed and the hold given back. */
  abandon(): Promise<void>;
}

/** An answer of the provider passed back as it came (an ephemeral key). */
export interface MintedAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * The Realtime API: sessions over WebSocket, relayed to OpenAI and Azure OpenAI channels and billed per
 * response (SessionFunds), and the ephemeral-key mints when REALTIME_EPHEMERAL_KEYS allows them.
 */
export class Realtime {
  readonly #sessions = new Set<RealtimeSession>();

  constructor(private readonly deps: RealtimeDeps) {}

  /** Sessions open now. */
  get openSessions(): number {
    return this.#sessions.size;
  }

  /** Bytes of the providers' events waiting to be sent to clients that do not read fast enough. */
  get waitingForClients(): number {
    let bytes = 0;
    for (const session of this.#sessions) bytes += session.waitingForClient;
    return bytes;
  }

  /**
   * Every check before the client's upgrade: the model (allowed to the key, served by a realtime
   * channel), the key's limits, the hold, the provider's socket. Throws the usual RelayErrors.
   */
  async open(
    caller: RelayCaller,
    request: RealtimeRequest,
    sink: Pick<ClientSink, 'setHeader'>,
  ): Promise<PendingSession> {
    const { model } = request;
    if (!model)
      throw RelayError.invalid('model is required: /v1/realtime?model=…', 'invalid_request', {
        param: 'model',
      });
    checkModelAllowed(caller, model);
    const group = caller.user.group || 'default';
    let channel = await this.#realtimeChannel(caller, group, model, new Set());
    // A channel that cannot serve the session is refused before anything is held.
    realtimeSocketEndpoint(channel, model, request.beta);
    const admission = await this.deps.limits?.admitSession(caller, sink);
    let funds: SessionFunds | undefined;
    try {
      funds = await SessionFunds.open(this.deps, {
        caller,
        model,
        group,
        channel,
        requestId: request.requestId,
      });
      const tried = new Set<number>();
      let retriesLeft = caller.pinnedChannelId === undefined ? this.deps.options.number('RetryTimes') : 0;
      for (;;) {
        try {
          const upstreamModel = modelMappingOf(channel.model_mapping)[model] || model;
          const endpoint = realtimeSocketEndpoint(channel, upstreamModel, request.beta);
          const upstream = await openRealtimeSocket(endpoint, {
            connectMs: this.deps.settings.connectMs,
            maxBytes: this.deps.settings.messageLimit,
          });
          return this.#pending(request, upstream, funds, admission);
        } catch (error) {
          if (!(error instanceof RelayError) || !isRetryable(error) || retriesLeft <= 0) throw error;
          this.deps.logger?.warn(
            { requestId: request.requestId, channelId: channel.id, reason: error.detail },
            'realtime upstream refused the session',
          );
          retriesLeft -= 1;
          tried.add(channel.id);
          const next = await this.#nextRealtimeChannel(group, model, tried);
          if (!next) throw error;
          channel = next;
        }
      }
    } catch (error) {
      await funds?.close();
      admission?.release();
      throw error;
    }
  }

  /**
   * Ends every open session (shutdown): responses in progress are cancelled and billed from the
   * provider's reports, each client gets an error event, each hold goes back.
   */
  async close(): Promise<void> {
    const shutdown = errorEvent('server_error', 'server_shutting_down', 'The gateway is shutting down');
    await Promise.all([...this.#sessions].map((session) => session.finish(shutdown, 1001)));
  }

  /**
   * Relays an ephemeral-key mint (`/v1/realtime/sessions`, `/v1/realtime/client_secrets`) when
   * REALTIME_EPHEMERAL_KEYS allows it: the key's owner must be allowed the model. Nothing is billed:
   * the client then talks to the provider directly.
   */
  async mint(caller: RelayCaller, kind: EphemeralKeyKind, rawBody: Buffer): Promise<MintedAnswer> {
    if (!this.deps.settings.ephemeralKeys) {
      throw RelayError.gateway(
        403,
        'Ephemeral realtime keys are not issued by this gateway: their use would bypass its billing. Open the session through wss://…/v1/realtime instead',
        'realtime_ephemeral_keys_disabled',
      );
    }
    const body = parseObject(rawBody);
    const session = kind === 'client_secrets' ? asObject(body.session) : body;
    const model = typeof session?.model === 'string' ? session.model : '';
    if (!model) throw RelayError.invalid('model is required', 'invalid_request', { param: 'model' });
    checkModelAllowed(caller, model);
    const channel = await this.#realtimeChannel(caller, caller.user.group || 'default', model, new Set());
    const upstreamModel = modelMappingOf(channel.model_mapping)[model] || model;
    if (session && upstreamModel !== model) session.model = upstreamModel;
    const endpoint = ephemeralKeyEndpoint(channel, kind);
    const { upstream } = this.deps;
    const call = upstream.forCall(performance.now());
    const answer = await call.send(
      { url: endpoint.url, method: 'POST', headers: endpoint.headers, body: JSON.stringify(body) },
      new ClientGone(),
    );
    const answerBody = await call.readWhole(answer.body);
    if (answer.status >= 400) throw upstreamError(answer.status, answerBody);
    return { status: answer.status, contentType: answer.contentType || 'application/json', body: answerBody };
  }

  #pending(
    request: RealtimeRequest,
    upstream: WebSocket,
    funds: SessionFunds,
    admission: Awaited<ReturnType<KeyLimits['admitSession']>>,
  ): PendingSession {
    const { settings, logger } = this.deps;
    return {
      start: (client) => {
        const session = new RealtimeSession({
          requestId: request.requestId,
          client,
          upstream,
          funds,
          beta: request.beta,
          outputCap: SESSION_HOLD_OUTPUT_TOKENS,
          admission,
          limits: { idleMs: settings.idleMs, sessionMs: settings.sessionMs },
          logger,
        });
        this.#sessions.add(session);
        return session.ended.finally(() => this.#sessions.delete(session));
      },
      abandon: async () => {
        upstream.terminate();
        try {
          await funds.close();
        } finally {
          admission?.release();
        }
      },
    };
  }

  /** The channel a session goes to: the router's pick, skipping channels that do not speak the Realtime API. */
  async #realtimeChannel(
    caller: RelayCaller,
    group: string,
    model: string,
    tried: Set<number>,
  ): Promise<ChannelRow> {
    const first = await firstChannel(this.deps.router, caller, group, model);
    if (speaksRealtime(first) || caller.pinnedChannelId !== undefined) return first;
    tried.add(first.id);
    const next = await this.#nextRealtimeChannel(group, model, tried);
    // None does: the endpoint names why.
    return next ?? first;
  }

  async #nextRealtimeChannel(
    group: string,
    model: string,
    tried: Set<number>,
  ): Promise<ChannelRow | undefined> {
    for (;;) {
      const next = await this.deps.router.select(group, model, tried);
      if (!next || speaksRealtime(next)) return next;
      tried.add(next.id);
    }
  }
}

function parseObject(raw: Buffer): Record<string, unknown> {
  try {
    const parsed = asObject(JSON.parse(raw.toString('utf8')));
    if (parsed) return parsed;
  } catch {
    // answered below
  }
  throw RelayError.invalid('The request body must be a JSON object', 'invalid_json');
}
