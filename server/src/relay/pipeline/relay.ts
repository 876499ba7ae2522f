import { channelBaseUrl } from '@switchyard/contract/channels';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelRow } from '../../db/schema';
import type { Billing } from '../../domain/billing';
import type { OptionsStore } from '../../domain/options';
import type { RelayCall } from '../adaptors/types';
import { isRetryable, RelayError } from '../errors';
import type { UpstreamClient } from '../upstream';
import { type AttemptHooks, type AttemptResult, attempt, type Outcome } from './attempt';
import { checkModelAllowed, type RelayCaller } from './authenticate';
import { buildRelayCall, type IncomingCall } from './call';
import type { ChannelHealth } from './channel-health';
import type { ChannelRouter } from './channel-router';
import type { ClientSink } from './client-sink';
import type { Admission, KeyLimits } from './key-limits';
import { modelMappingOf } from './model-mapping';
import { type RelayRequest, readRelayRequest } from './relay-request';
import { refund, reserveFor } from './reserve';
import { firstChannel } from './route';
import { settle } from './settle';
import type { TokenCounter } from './tokenizer';

export interface RelayDeps {
  router: ChannelRouter;
  billing: Billing;
  options: OptionsStore;
  health: ChannelHealth;
  counter: TokenCounter;
  upstream: UpstreamClient;
  /** The keys' rate limits (requests and tokens per minute, concurrency). */
  limits?: KeyLimits;
  logger?: FastifyBaseLogger;
  /** Silence (ms) after which a stream gets a `: keep-alive` comment; default KEEP_ALIVE_MS. */
  keepAliveMs?: number;
}

/** What a side call works with: its channel, the model named upstream, the relay's client and counter. */
export interface SideCall {
  channel: ChannelRow;
  baseUrl: string;
  upstreamModel: string;
  upstream: UpstreamClient;
  counter: TokenCounter;
}

/**
 * The hot path, one stage a module, for a caller the front has authenticated: route (choose a
 * channel), reserve quota, attempt (call upstream, stream), settle; on a retryable failure the next channel, the reservation kept,
 * while the call's RELAY_TIMEOUT budget lasts.
 */
export class Relay {
  constructor(private readonly deps: RelayDeps) {}

  /** The relay's token counter: what the count-tokens endpoints answer with. */
  get counter(): TokenCounter {
    return this.deps.counter;
  }

  /** Resolves once every settlement started so far has been written (tests, shutdown). */
  settled(): Promise<void> {
    return this.deps.billing.settled();
  }

  /** One call from `caller`, authenticated by the front before its body was read. */
  async handle(caller: RelayCaller, incoming: IncomingCall, sink: ClientSink): Promise<void> {
    const started = performance.now();
    const request = readRelayRequest(
      incoming.mode,
      incoming.rawBody,
      incoming.contentType,
      incoming.pathModel,
    );
    checkModelAllowed(caller, request.model);
    const admission = await this.deps.limits?.admit(caller, request, sink);
    try {
      await this.#handle(caller, incoming, request, sink, started, admission);
    } finally {
      admission?.release();
    }
  }

  async #handle(
    caller: RelayCaller,
    incoming: IncomingCall,
    request: RelayRequest,
    sink: ClientSink,
    started: number,
    admission: Admission | undefined,
  ): Promise<void> {
    const { router, options } = this.deps;
    const group = caller.user.group || 'default';
    let channel = await firstChannel(router, caller, group, request.model);
    const { reservation, watch } = await reserveFor(this.deps, caller, request, group, channel);

    // RELAY_TIMEOUT is the whole call's: each attempt waits only for what is left of it.
    const deps = { ...this.deps, upstream: this.deps.upstream.forCall(started) };
    const tried = new Set<number>();
    let retriesLeft = caller.pinnedChannelId === undefined ? options.number('RetryTimes') : 0;
    for (;;) {
      const call = buildRelayCall(incoming, request, channel);
      const finish = async (outcome: Outcome) => {
        const usage = await settle(
          this.deps,
          incoming,
          request,
          group,
          channel,
          reservation,
          outcome,
          started,
        );
        admission?.settled(usage.prompt_tokens + usage.completion_tokens);
      };
      let result: AttemptResult;
      try {
        result = await attempt(deps, call, sink, { finish, watch: watch?.(channel) });
      } catch (error) {
        // Our own bug, not the caller's or the provider's: the reservation goes back all the same.
        await refund(this.deps, reservation);
        throw error;
      }
      if (result.ok) return;
      if (result.error.origin === 'upstream') {
        // Clients get the short message; the log keeps what happened (the key already taken out).
        this.deps.logger?.warn(
          {
            requestId: incoming.requestId,
            channelId: channel.id,
            status: result.error.status,
            reason: result.error.detail,
          },
          'upstream attempt failed',
        );
      }
      await this.deps.health
        .failed(channel, result.error)
        .catch((error: unknown) => this.deps.logger?.error({ err: error }, 'channel health update failed'));
      const next =
        !result.started && retriesLeft > 0 && isRetryable(result.error) && deps.upstream.remainingMs() > 0
          ? await router.select(group, request.model, tried.add(channel.id))
          : undefined;
      if (!next) {
        await refund(this.deps, reservation);
        if (result.started) return;
        throw result.error.status === 429
          ? RelayError.gateway(
              429,
              'The upstream channels of your group are saturated; please try again later',
              result.error.code,
              result.error.type,
            )
          : result.error;
      }
      retriesLeft -= 1;
      channel = next;
    }
  }

  /**
   * An unbilled side call (Anthropic's count_tokens): the key's model permission checked, the
   * channel the model routes to chosen, then `work` on it, once. No reservation, no log, no retry.
   */
  async sideCall<T>(caller: RelayCaller, model: string, work: (side: SideCall) => Promise<T>): Promise<T> {
    checkModelAllowed(caller, model);
    const channel = await firstChannel(this.deps.router, caller, caller.user.group || 'default', model);
    return work({
      channel,
      baseUrl: channelBaseUrl(channel),
      upstreamModel: modelMappingOf(channel.model_mapping)[model] || model,
      upstream: this.deps.upstream.forCall(performance.now()),
      counter: this.deps.counter,
    });
  }

  /** One call on one channel (see `attempt`); channel tests use it without hooks. */
  attempt(call: RelayCall, sink: ClientSink, hooks: AttemptHooks = {}): Promise<AttemptResult> {
    return attempt(this.deps, call, sink, hooks);
  }
}
