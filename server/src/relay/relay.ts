import { channelTypeById } from '@switchyard/contract/channel-types';
import { channelBaseUrl, parseModelMapping } from '@switchyard/contract/channels';
import { ChannelStatus } from '@switchyard/contract/roles';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelRow } from '../db/schema';
import type { Billing, Payer, Price, Reservation } from '../domain/billing';
import type { OptionsStore } from '../domain/options';
import { adaptorFor } from './adaptors/registry';
import type { RelayCall, RelayMode, Usage } from './adaptors/types';
import { authenticate, checkModelAllowed, type RelayCaller } from './authenticate';
import type { ChannelHealth } from './channel-health';
import type { ChannelRouter } from './channel-router';
import type { ClientSink } from './client-sink';
import { clientClosed, databaseUnavailable, isRetryable, RelayError } from './errors';
import type { IdentityCache } from './identity-cache';
import { countPromptTokens, type RelayRequest, readRelayRequest } from './relay-request';
import { completionBudget, limitCompletion, StreamSpendWatch } from './spending-limit';
import { SseParser } from './sse';
import type { TokenCounter } from './tokenizer';
import { unitQuota } from './unit-pricing';
import { readAll, type UpstreamClient } from './upstream';

export interface RelayDeps {
  router: ChannelRouter;
  identities: IdentityCache;
  billing: Billing;
  options: OptionsStore;
  health: ChannelHealth;
  counter: TokenCounter;
  upstream: UpstreamClient;
  logger?: FastifyBaseLogger;
  /** Silence (ms) after which a stream gets a `: keep-alive` comment; default KEEP_ALIVE_MS. */
  keepAliveMs?: number;
}

export interface IncomingCall {
  requestId: string;
  mode: RelayMode;
  path: string;
  query: string;
  authorization: string | undefined;
  clientIp: string;
  rawBody: Buffer;
  contentType: string;
  pathModel?: string;
}

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

const KEEP_ALIVE_MS = 15_000;

/**
 * How long the end of an answer waits for its settlement to be written. Normally it takes one
 * transaction; when the database is out, the answer goes and the settlement is retried behind it.
 */
const SETTLEMENT_WAIT_MS = 2_000;

function quotaRefused(refusal: 'user-quota' | 'token-quota'): RelayError {
  return refusal === 'user-quota'
    ? new RelayError(
        403,
        'Your quota is not enough for this request',
        'one_api_error',
        'insufficient_user_quota',
      )
    : new RelayError(
        403,
        'This API key does not have enough quota left',
        'one_api_error',
        'pre_consume_token_quota_failed',
      );
}

/** Sent as a stream's last event when the account cannot pay for more of it. */
const quotaRanOut = () =>
  new RelayError(
    403,
    'The answer was cut short: your quota cannot pay for more of it',
    'one_api_error',
    'insufficient_user_quota',
  );

/** The hot path: authenticate, choose a channel, reserve quota, call upstream, answer, settle. */
export class Relay {
  constructor(private readonly deps: RelayDeps) {}

  /** Resolves once every settlement started so far has been written (tests, shutdown). */
  settled(): Promise<void> {
    return this.deps.billing.settled();
  }

  async handle(incoming: IncomingCall, sink: ClientSink): Promise<void> {
    const { billing, router, options } = this.deps;
    const started = performance.now();
    const caller = await authenticate(this.deps.identities, incoming.authorization, incoming.clientIp);
    const request = readRelayRequest(
      incoming.mode,
      incoming.rawBody,
      incoming.contentType,
      incoming.pathModel,
    );
    checkModelAllowed(caller, request.model);
    const group = caller.user.group || 'default';

    let channel = await this.#firstChannel(caller, group, request.model);
    const payer: Payer = {
      userId: caller.user.id,
      username: caller.user.username,
      tokenId: caller.token.row.id,
      tokenName: caller.token.row.name,
      unlimitedToken: Boolean(caller.token.row.unlimited_quota),
    };
    const firstPrice = billing.price(request.model, group, channel.type);
    const unitPrice = unitQuota(request, firstPrice);
    const estimate = unitPrice ?? billing.estimate(firstPrice, request.maxTokens);
    const ceiling = unitPrice ?? billing.ceiling(firstPrice, request.maxTokens);
    const reservation = await this.#reserve(payer, estimate, ceiling);
    const watch =
      unitPrice === undefined ? this.#limitSpending(request, group, firstPrice, reservation) : undefined;
    if (watch === 'unaffordable') {
      await this.#refund(reservation);
      throw quotaRefused('user-quota');
    }

    const tried = new Set<number>();
    let retriesLeft = caller.pinnedChannelId === undefined ? options.number('RetryTimes') : 0;
    for (;;) {
      const call = buildRelayCall(incoming, request, channel);
      const settle = (outcome: Outcome) =>
        this.#settle(incoming, request, group, channel, reservation, outcome, started);
      let result: AttemptResult;
      try {
        result = await this.attempt(call, sink, { finish: settle, watch: watch?.(channel) });
      } catch (error) {
        // Our own bug, not the caller's or the provider's: the reservation goes back all the same.
        await this.#refund(reservation);
        throw error;
      }
      if (result.ok) return;
      await this.deps.health
        .failed(channel, result.error)
        .catch((error: unknown) => this.deps.logger?.error({ err: error }, 'channel health update failed'));
      const next =
        !result.started && retriesLeft > 0 && isRetryable(result.error)
          ? await router.select(group, request.model, tried.add(channel.id))
          : undefined;
      if (!next) {
        await this.#refund(reservation);
        if (result.started) return;
        throw result.error.status === 429
          ? new RelayError(
              429,
              'The upstream channels of your group are saturated; please try again later',
              result.error.type,
              result.error.code,
            )
          : result.error;
      }
      retriesLeft -= 1;
      channel = next;
    }
  }

  /**
   * One call on one channel, answered into the sink on success. `finish` runs before the answer's
   * last bytes (the relay settles there, so an answer a client received whole is on the books);
   * `watch` follows a stream's cost. Channel tests use this path too, without them.
   */
  async attempt(
    call: RelayCall,
    sink: ClientSink,
    hooks: { finish?: (outcome: Outcome) => Promise<void>; watch?: StreamSpendWatch } = {},
  ): Promise<AttemptResult> {
    const adaptor = adaptorFor(call.channel.type);
    if (!adaptor) {
      const name = channelTypeById(call.channel.type)?.name.en ?? `type ${call.channel.type}`;
      return fail(
        new RelayError(
          501,
          `Relaying to ${name} channels is not available in this version`,
          'one_api_error',
          'channel_type_not_supported',
          '',
          'upstream',
        ),
      );
    }
    // The upstream call ends when the client leaves: the sink's signal says so.
    const { signal } = sink;
    try {
      const upstreamRequest = await adaptor.buildRequest(call);
      const upstream = adaptor.transport
        ? await adaptor.transport(upstreamRequest, call, signal, this.deps.upstream)
        : await this.deps.upstream.send(upstreamRequest, signal);
      if (upstream.status !== 200 && upstream.status !== 201) {
        return fail(adaptor.parseError(upstream.status, await readAll(upstream.body)));
      }
      if (!call.isStream) {
        const body = await readAll(upstream.body);
        const converted = adaptor.convertResponse(call, body, upstream.contentType);
        if (converted instanceof RelayError) return fail(converted);
        const outcome: Outcome = { usage: converted.usage, text: () => converted.text, complete: true };
        await hooks.finish?.(outcome);
        sink.body(200, converted.contentType, withEmbeddingEncoding(call, converted.body));
        return { ok: true, ...outcome };
      }
      if (upstream.contentType.startsWith('application/json')) {
        return fail(adaptor.parseError(502, await readAll(upstream.body)));
      }
      return await this.#stream(call, upstream.body, adaptor.streamTranslator(call), sink, signal, hooks);
    } catch (error) {
      if (error instanceof RelayError) return fail(error);
      // A body that breaks off half-way (reset, timeout, the client leaving) is a failed attempt.
      if (signal.aborted) return fail(clientClosed());
      return fail(upstreamBroke(error));
    }
  }

  async #stream(
    call: RelayCall,
    body: AsyncIterable<Uint8Array>,
    translator: ReturnType<NonNullable<ReturnType<typeof adaptorFor>>['streamTranslator']>,
    sink: ClientSink,
    signal: AbortSignal,
    hooks: { finish?: (outcome: Outcome) => Promise<void>; watch?: StreamSpendWatch },
  ): Promise<AttemptResult> {
    const parser = new SseParser();
    let cutShort = false;
    sink.startStream();
    let lastWrite = Date.now();
    const keepAliveMs = this.deps.keepAliveMs ?? KEEP_ALIVE_MS;
    const keepAlive = setInterval(() => {
      if (Date.now() - lastWrite >= keepAliveMs) sink.write(': keep-alive\n\n');
    }, keepAliveMs);
    // Events that arrived together leave together: one write per upstream chunk, none held back.
    const forward = (events: Array<{ event?: string; data: string }>) => {
      let out = '';
      for (const event of events) {
        for (const data of translator.push(event.data, event.event)) out += `data: ${data}\n\n`;
      }
      if (!out) return;
      sink.write(out);
      lastWrite = Date.now();
    };
    try {
      for await (const chunk of body) {
        forward(parser.push(chunk));
        if (hooks.watch && !(await hooks.watch.afford(translator.text()))) {
          cutShort = true;
          break;
        }
      }
      if (!cutShort) forward(parser.end());
    } catch (error) {
      if (!signal.aborted)
        this.deps.logger?.warn({ err: error, requestId: call.requestId }, 'upstream stream broke off');
    } finally {
      clearInterval(keepAlive);
    }
    // Billed for what was delivered, whether the stream ended, broke off or the client left.
    const outcome: Outcome = {
      usage: translator.usage(),
      text: () => translator.text(),
      complete: translator.done() && !cutShort,
    };
    await hooks.finish?.(outcome);
    if (!signal.aborted) {
      if (cutShort) sink.write(`data: ${JSON.stringify(quotaRanOut().body(call.requestId))}\n\n`);
      sink.write('data: [DONE]\n\n');
      sink.end();
    }
    return { ok: true, ...outcome };
  }

  /** Reserves the call's estimate; a database that cannot be reached is a clear 503, not a hang. */
  async #reserve(payer: Payer, estimate: number, ceiling: number): Promise<Reservation> {
    let reservation: Awaited<ReturnType<Billing['reserve']>>;
    try {
      reservation = await this.deps.billing.reserve(payer, estimate, ceiling);
    } catch (error) {
      this.deps.logger?.error({ err: error }, 'quota reservation failed');
      throw databaseUnavailable();
    }
    if (typeof reservation === 'string') throw quotaRefused(reservation);
    return reservation;
  }

  /**
   * For an account that cannot pay the call's worst case: asks the provider for no more than it can
   * pay, and answers how to watch a stream's cost per channel ('unaffordable' when not even the
   * prompt is covered).
   */
  #limitSpending(
    request: RelayRequest,
    group: string,
    price: Price,
    reservation: Reservation,
  ): ((channel: ChannelRow) => StreamSpendWatch | undefined) | 'unaffordable' | undefined {
    if (reservation.limit === undefined) return undefined;
    const { counter, billing } = this.deps;
    const { budget, promptTokens } = completionBudget(request, price, reservation.limit, counter);
    if (budget < 1) return 'unaffordable';
    limitCompletion(request, budget);
    if (!request.isStream) return undefined;
    return (channel) =>
      new StreamSpendWatch({
        billing,
        reservation,
        price: billing.price(request.model, group, channel.type),
        promptTokens,
        model: request.model,
        counter,
        step: reservation.amount,
      });
  }

  /** Charges a call that succeeded and waits (a bounded time) for it to be written. */
  async #settle(
    incoming: IncomingCall,
    request: RelayRequest,
    group: string,
    channel: ChannelRow,
    reservation: Reservation,
    outcome: Outcome,
    started: number,
  ): Promise<void> {
    const { billing } = this.deps;
    const price = billing.price(request.model, group, channel.type);
    const usage = this.#billedUsage(request, outcome);
    const written = billing.settle({
      reservation,
      price,
      fixedQuota: this.#fixedQuota(request, price, outcome.text),
      model: request.model,
      channelId: channel.id,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      requestId: incoming.requestId,
      isStream: request.isStream,
      elapsedMs: Math.round(performance.now() - started),
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      written,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SETTLEMENT_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Per-unit calls are charged their unit price; transcripts by the tokens of the text. */
  #fixedQuota(request: RelayRequest, price: Price, text: () => string): number | undefined {
    if (request.mode === 'audio-transcription' || request.mode === 'audio-translation') {
      return Math.ceil(this.deps.counter.text(text(), request.model) * price.ratio);
    }
    return unitQuota(request, price);
  }

  /**
   * What a call is billed for: the provider's usage, or what we count when it reports none. A stream
   * cut short pays at least for the text it delivered: an early report (Anthropic's message_start
   * says 1 output token) must not stand for an answer that went on.
   */
  #billedUsage(
    request: RelayRequest,
    result: { usage?: Usage; text: () => string; complete: boolean },
  ): Usage {
    const reported = result.usage;
    if (reported && result.complete) return reported;
    const completion = this.deps.counter.text(result.text(), request.model);
    if (!reported) {
      return { prompt_tokens: countPromptTokens(request, this.deps.counter), completion_tokens: completion };
    }
    return {
      prompt_tokens: reported.prompt_tokens || countPromptTokens(request, this.deps.counter),
      completion_tokens: Math.max(reported.completion_tokens, completion),
    };
  }

  async #firstChannel(caller: RelayCaller, group: string, model: string): Promise<ChannelRow> {
    if (caller.pinnedChannelId !== undefined) {
      const pinned = await this.deps.router.channel(caller.pinnedChannelId);
      if (!pinned) throw new RelayError(400, 'Invalid channel id');
      if (pinned.status !== ChannelStatus.enabled)
        throw new RelayError(403, 'This channel has been disabled');
      return pinned;
    }
    const channel = await this.deps.router.select(group, model);
    if (!channel) {
      throw new RelayError(
        503,
        `No channel is available for model ${model} in group ${group}`,
        'one_api_error',
        'model_not_available',
      );
    }
    return channel;
  }

  async #refund(reservation: Reservation): Promise<void> {
    await this.deps.billing
      .refund(reservation)
      .catch((error: unknown) => this.deps.logger?.error({ err: error, reservation }, 'refund failed'));
  }
}

const fail = (error: RelayError): AttemptResult => ({ ok: false, error, started: false });

const upstreamBroke = (error: unknown) =>
  new RelayError(
    502,
    `The upstream answer broke off: ${error instanceof Error ? error.message : String(error)}`,
    'upstream_error',
    'upstream_broken',
    '',
    'upstream',
  );

/**
 * Clients (the openai SDK by default) may ask for base64 embeddings; adaptors answer float arrays.
 * One place turns them into little-endian float32 base64, as OpenAI sends them.
 */
function withEmbeddingEncoding(call: RelayCall, body: string | Buffer): string | Buffer {
  if (call.mode !== 'embeddings' || call.body?.encoding_format !== 'base64') return body;
  let parsed: { data?: Array<{ embedding?: unknown }> };
  try {
    parsed = JSON.parse(body.toString()) as typeof parsed;
  } catch {
    return body;
  }
  let changed = false;
  for (const item of parsed.data ?? []) {
    if (Array.isArray(item.embedding)) {
      item.embedding = Buffer.from(new Float32Array(item.embedding as number[]).buffer).toString('base64');
      changed = true;
    }
  }
  return changed ? JSON.stringify(parsed) : body;
}

const mappings = new Map<string, Record<string, string>>();

/** A channel's model mapping, parsed once per distinct text (an invalid one maps nothing). */
function modelMappingOf(text: string | null): Record<string, string> {
  const key = text ?? '';
  let mapping = mappings.get(key);
  if (!mapping) {
    const parsed = parseModelMapping(key);
    mapping = 'mapping' in parsed ? parsed.mapping : {};
    if (mappings.size > 1000) mappings.clear();
    mappings.set(key, mapping);
  }
  return mapping;
}

/** Everything an adaptor needs for one attempt on one channel, the model mapping applied. */
export function buildRelayCall(
  incoming: Pick<IncomingCall, 'requestId' | 'path' | 'query'>,
  request: RelayRequest,
  channel: ChannelRow,
): RelayCall {
  const mapped = modelMappingOf(channel.model_mapping)[request.model];
  return {
    requestId: incoming.requestId,
    mode: request.mode,
    path: incoming.path,
    query: incoming.query,
    channel,
    baseUrl: channelBaseUrl(channel),
    apiKey: channel.key,
    requestedModel: request.model,
    upstreamModel: mapped || request.model,
    isStream: request.isStream,
    body: request.body,
    rawBody: request.rawBody,
    contentType: request.contentType,
  };
}
