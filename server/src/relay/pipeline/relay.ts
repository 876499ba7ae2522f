import type { FastifyBaseLogger } from 'fastify';
import type { ChannelRow } from '../../db/schema';
import type { Billing } from '../../domain/billing';
import type { OptionsStore } from '../../domain/options';
import type { RelayMetrics, RelayOutcome } from '../../metrics/relay-metrics';
import type { RelayCall } from '../adaptors/types';
import { isRetryable, RelayError } from '../errors';
import type { UpstreamClient } from '../upstream';
import { attempt } from './attempt';
import { checkModelAllowed, type RelayCaller } from './authenticate';
import { buildRelayCall, type IncomingCall, type UnbilledCall } from './call';
import type { ChannelHealth } from './channel-health';
import type { ChannelRouter } from './channel-router';
import type { ClientSink } from './client-sink';
import type { Admission, KeyLimits } from './key-limits';
import { speaks } from './native';
import type { AttemptHooks, AttemptResult, Outcome } from './outcome';
import { type RelayRequest, readRelayRequest } from './relay-request';
import { refund, reserveFor } from './reserve';
import { firstChannel } from './route';
import { settle } from './settle';
import type { TokenCounter } from './tokenizer';

/** What one call's count says, filled in as the call goes. */
interface CallTally {
  model: string;
  channelId: number;
  outcome: RelayOutcome;
}

function outcomeOfError(error: unknown): RelayOutcome {
  if (!(error instanceof RelayError)) return 'error';
  if (error.code === 'client_closed') return 'client_closed';
  return error.origin === 'upstream' ? 'upstream_error' : 'refused';
}

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
  /** Counts calls, latencies and retries (METRICS_TOKEN); absent, nothing is counted. */
  metrics?: RelayMetrics;
  /** Silence (ms) after which a stream gets a `: keep-alive` comment; default KEEP_ALIVE_MS. */
  keepAliveMs?: number;
}

/**
 * The hot path, one stage a module, for a caller the front has authenticated: route (choose a
 * channel), reserve quota, attempt (call upstream, stream), settle; on a retryable failure the next channel, the reservation kept,
 * while the call's RELAY_TIMEOUT budget lasts.
 */
export class Relay {
  /** Calls being handled, and who waits for there to be none (shutdown). */
  #inFlight = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: RelayDeps) {}

  /** Calls being handled now (metrics). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Resolves once no call is being handled, or after `waitMs`. At shutdown, calls whose connections
   * were cut still settle or refund (the upstream is aborted with them) before the books are closed.
   */
  idle(waitMs: number): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      this.#idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves once every settlement started so far has been written (tests, shutdown). */
  settled(): Promise<void> {
    return this.deps.billing.settled();
  }

  /** One call from `caller`, authenticated by the front before its body was read. */
  async handle(caller: RelayCaller, incoming: IncomingCall, sink: ClientSink): Promise<void> {
    this.#inFlight++;
    try {
      if (this.deps.metrics) await this.#counted(caller, incoming, sink, this.deps.metrics);
      else await this.#handle(caller, incoming, sink, undefined);
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0 && this.#idleWaiters.length > 0) {
        for (const wake of this.#idleWaiters.splice(0)) wake();
      }
    }
  }

  /** A call counted for /metrics: its endpoint, model, channel and how it ended. */
  async #counted(
    caller: RelayCaller,
    incoming: IncomingCall,
    sink: ClientSink,
    metrics: RelayMetrics,
  ): Promise<void> {
    // What the call ended with and on which channel, for the count (set as the call goes).
    const tally: CallTally = { model: '', channelId: 0, outcome: 'error' };
    try {
      await this.#handle(caller, incoming, sink, tally);
    } catch (error) {
      tally.outcome = outcomeOfError(error);
      throw error;
    } finally {
      metrics.callEnded(incoming.mode, tally.model, tally.channelId, tally.outcome);
    }
  }

  async #handle(
    caller: RelayCaller,
    incoming: IncomingCall,
    sink: ClientSink,
    tally: CallTally | undefined,
  ): Promise<void> {
    const started = performance.now();
    // The stages up to the upstream call answer at once from memory in the common case: awaited
    // only when they had to wait (each await costs a call a promise and a turn: see whenReady).
    const read = readRelayRequest(
      incoming.mode,
      incoming.rawBody,
      incoming.contentType,
      incoming.pathModel,
      incoming.body,
      incoming.upload,
    );
    const request = read instanceof Promise ? await read : read;
    checkModelAllowed(caller, request.model);
    const admitted = this.deps.limits?.admit(caller, request, sink);
    const admission = admitted instanceof Promise ? await admitted : admitted;
    try {
      await this.#relay(caller, incoming, request, sink, started, admission, tally);
    } finally {
      admission?.release();
    }
  }

  async #relay(
    caller: RelayCaller,
    incoming: IncomingCall,
    request: RelayRequest,
    sink: ClientSink,
    started: number,
    admission: Admission | undefined,
    tally: CallTally | undefined,
  ): Promise<void> {
    const { router, options, metrics } = this.deps;
    const group = caller.user.group || 'default';
    const first = firstChannel(router, caller, group, request.model);
    let channel = first instanceof Promise ? await first : first;
    // Only a model some channel serves becomes a label: a client cannot make up series.
    if (tally) tally.model = request.model;
    const funds = reserveFor(this.deps, caller, request, group, channel);
    const { reservation, watch } = funds instanceof Promise ? await funds : funds;

    // RELAY_TIMEOUT is the whole call's: each attempt waits only for what is left of it.
    const { logger, keepAliveMs } = this.deps;
    const deps = { upstream: this.deps.upstream.forCall(started), metrics, logger, keepAliveMs };
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
      if (tally) tally.channelId = channel.id;
      let result: AttemptResult;
      try {
        result = await attempt(deps, call, sink, {
          finish,
          watch: watch?.(channel),
          callStartedAt: metrics && tried.size === 0 ? started : undefined,
        });
      } catch (error) {
        // Our own bug, not the caller's or the provider's: the reservation goes back all the same.
        await refund(this.deps, reservation);
        throw error;
      }
      if (result.ok) {
        this.deps.health.succeeded(channel);
        if (tally) tally.outcome = result.complete ? 'success' : 'incomplete';
        return;
      }
      if (tally) tally.outcome = result.started ? 'incomplete' : outcomeOfError(result.error);
      await this.#recordFailure(incoming.requestId, channel, result.error);
      const next =
        !result.started && retriesLeft > 0
          ? await this.#nextChannel(group, request.model, channel, result.error, tried, deps.upstream)
          : undefined;
      if (!next) {
        await refund(this.deps, reservation);
        if (result.started) return;
        throw answeredError(result.error);
      }
      retriesLeft -= 1;
      metrics?.retried(channel.id);
      channel = next;
    }
  }

  /**
   * An unbilled call (count_tokens): the key's model permission checked, then attempts as for any
   * call (the channel the model routes to, the next on a retryable failure, channel health told, the
   * upstream's errors mapped), but nothing reserved, settled, logged or counted against the key's
   * limits. A channel that speaks the client's format answers it upstream; any other channel is
   * answered here by the call's own counting, with no upstream call.
   */
  async unbilled(caller: RelayCaller, incoming: UnbilledCall, sink: ClientSink): Promise<void> {
    const started = performance.now();
    const { model, native } = incoming;
    checkModelAllowed(caller, model);
    const { router, logger, keepAliveMs } = this.deps;
    const group = caller.user.group || 'default';
    const request: RelayRequest = {
      mode: 'chat',
      model,
      isStream: false,
      maxTokens: 0,
      body: undefined,
      rawBody: native.rawBody,
      contentType: 'application/json',
    };
    const deps = { upstream: this.deps.upstream.forCall(started), logger, keepAliveMs };
    const tried = new Set<number>();
    let retriesLeft = caller.pinnedChannelId === undefined ? this.deps.options.number('RetryTimes') : 0;
    let channel = await firstChannel(router, caller, group, model);
    for (;;) {
      const call = buildRelayCall(incoming, request, channel);
      if (!speaks(native.format, channel.type, call.upstreamModel)) {
        sink.body(200, 'application/json', JSON.stringify(incoming.answerHere(this.deps.counter)));
        return;
      }
      const result = await attempt(deps, call, sink);
      if (result.ok) {
        this.deps.health.succeeded(channel);
        return;
      }
      await this.#recordFailure(incoming.requestId, channel, result.error);
      const next =
        retriesLeft > 0
          ? await this.#nextChannel(group, model, channel, result.error, tried, deps.upstream)
          : undefined;
      if (!next) throw answeredError(result.error);
      retriesLeft -= 1;
      channel = next;
    }
  }

  /** A failed attempt: the upstream's failure logged, channel health told. */
  async #recordFailure(requestId: string, channel: ChannelRow, error: RelayError): Promise<void> {
    if (error.origin === 'upstream') {
      // Clients get the short message; the log keeps what happened (the key already taken out).
      this.deps.logger?.warn(
        { requestId, channelId: channel.id, status: error.status, reason: error.detail },
        'upstream attempt failed',
      );
    }
    await this.deps.health
      .failed(channel, error)
      .catch((failure: unknown) => this.deps.logger?.error({ err: failure }, 'channel health update failed'));
  }

  /** The channel to retry on, when the error may be retried and the call's time allows: one not tried yet. */
  async #nextChannel(
    group: string,
    model: string,
    channel: ChannelRow,
    error: RelayError,
    tried: Set<number>,
    upstream: UpstreamClient,
  ): Promise<ChannelRow | undefined> {
    if (!isRetryable(error) || upstream.remainingMs() <= 0) return undefined;
    return this.deps.router.select(group, model, tried.add(channel.id));
  }

  /** One call on one channel (see `attempt`); channel tests use it without hooks. */
  attempt(call: RelayCall, sink: ClientSink, hooks: AttemptHooks = {}): Promise<AttemptResult> {
    return attempt(this.deps, call, sink, hooks);
  }
}

/** The error a client gets when no channel is left: an upstream's 429 says the group's channels are saturated. */
function answeredError(error: RelayError): RelayError {
  return error.status === 429
    ? RelayError.gateway(
        429,
        'The upstream channels of your group are saturated; please try again later',
        error.code,
        error.type,
      )
    : error;
}
