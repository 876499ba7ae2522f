import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { LabelCache } from './label-cache';
import type { RelayMetrics, RelayOutcome } from './relay-metrics';

/** What the gauges read when Prometheus scrapes (never on the hot path). */
export interface MetricSources {
  /** Quota held ahead in this process's memory for payers' next calls, and for how many payers. */
  heldCredit?: () => { payers: number; quota: number };
  /** Writes waiting in the group-commit queues (holds, settlements). */
  queueDepths?: () => Record<string, number>;
  /** Relay calls being handled. */
  inFlight?: () => number;
  /** The database pool (PostgreSQL, MySQL). */
  poolUse?: () => { open: number; idle: number; waiting: number };
  /** Bytes of request bodies counted against REQUEST_BODY_BUDGET. */
  bodyBytesHeld?: () => number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const ADDED_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** Every metric of one process, in a registry of its own (not prom-client's global one). */
export class GatewayMetrics implements RelayMetrics {
  readonly registry = new Registry();
  readonly #sources: MetricSources = {};
  readonly #requests: LabelCache<{ inc(): void }>;
  readonly #upstream: LabelCache<{ observe(seconds: number): void }>;
  readonly #added: LabelCache<{ observe(seconds: number): void }>;
  readonly #retries: LabelCache<{ inc(): void }>;
  readonly #tokens: LabelCache<{ inc(amount: number): void }>;
  readonly #quota: LabelCache<{ inc(amount: number): void }>;
  readonly #disables: LabelCache<{ inc(): void }>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const requests = new Counter({
      name: 'switchyard_relay_requests_total',
      help: 'Relay calls by endpoint, model, channel and outcome',
      labelNames: ['endpoint', 'model', 'channel', 'outcome'],
      registers,
    });
    this.#requests = new LabelCache((...labels) => requests.labels(...labels));
    const upstream = new Histogram({
      name: 'switchyard_upstream_latency_seconds',
      help: "Time from sending a request to a channel to its answer's head (status and headers)",
      labelNames: ['channel'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#upstream = new LabelCache((channel) => upstream.labels(channel as string));
    const added = new Histogram({
      name: 'switchyard_gateway_added_latency_seconds',
      help: 'Time the gateway spends on a call before its upstream request goes out (routing, quota, translation)',
      labelNames: ['endpoint'],
      buckets: ADDED_BUCKETS,
      registers,
    });
    this.#added = new LabelCache((endpoint) => added.labels(endpoint as string));
    const retries = new Counter({
      name: 'switchyard_relay_retries_total',
      help: 'Failed attempts retried on another channel, by the channel that failed',
      labelNames: ['channel'],
      registers,
    });
    this.#retries = new LabelCache((channel) => retries.labels(channel as string));
    const tokens = new Counter({
      name: 'switchyard_tokens_total',
      help: 'Tokens billed, by model and kind (prompt, completion)',
      labelNames: ['model', 'kind'],
      registers,
    });
    this.#tokens = new LabelCache((model, kind) => tokens.labels(model as string, kind as string));
    const quota = new Counter({
      name: 'switchyard_quota_consumed_total',
      help: 'Quota charged for settled calls, by model',
      labelNames: ['model'],
      registers,
    });
    this.#quota = new LabelCache((model) => quota.labels(model as string));
    const disables = new Counter({
      name: 'switchyard_channel_auto_disables_total',
      help: 'Channels switched off automatically (a dead key or account)',
      labelNames: ['channel'],
      registers,
    });
    this.#disables = new LabelCache((channel) => disables.labels(channel as string));
    this.#gauges(registers);
  }

  /** Where the gauges read from; set once the services exist. */
  observe(sources: MetricSources): void {
    Object.assign(this.#sources, sources);
  }

  callEnded(endpoint: string, model: string, channelId: number, outcome: RelayOutcome): void {
    this.#requests.four(endpoint, model, channelId, outcome).inc();
  }

  upstreamAnswered(
    endpoint: string,
    channelId: number,
    sentAt: number,
    callStartedAt: number | undefined,
  ): void {
    this.#upstream.one(channelId).observe((performance.now() - sentAt) / 1000);
    if (callStartedAt !== undefined) this.#added.one(endpoint).observe((sentAt - callStartedAt) / 1000);
  }

  retried(channelId: number): void {
    this.#retries.one(channelId).inc();
  }

  settled(model: string, promptTokens: number, completionTokens: number, quota: number): void {
    if (promptTokens > 0) this.#tokens.two(model, 'prompt').inc(promptTokens);
    if (completionTokens > 0) this.#tokens.two(model, 'completion').inc(completionTokens);
    if (quota > 0) this.#quota.one(model).inc(quota);
  }

  channelAutoDisabled(channelId: number): void {
    this.#disables.one(channelId).inc();
  }

  #gauges(registers: Registry[]): void {
    const sources = this.#sources;
    new Gauge({
      name: 'switchyard_relay_in_flight',
      help: 'Relay calls in progress (each holds a reservation once its quota is reserved)',
      registers,
      collect() {
        this.set(sources.inFlight?.() ?? 0);
      },
    });
    new Gauge({
      name: 'switchyard_reserved_credit_quota',
      help: "Quota held ahead in this process's memory for payers' next calls",
      registers,
      collect() {
        this.set(sources.heldCredit?.().quota ?? 0);
      },
    });
    new Gauge({
      name: 'switchyard_reserved_credit_payers',
      help: 'Payers (user and key) this process holds credit ahead for',
      registers,
      collect() {
        this.set(sources.heldCredit?.().payers ?? 0);
      },
    });
    new Gauge({
      name: 'switchyard_group_commit_queue_depth',
      help: 'Writes queued or being committed, by queue (holds, settlements)',
      labelNames: ['queue'],
      registers,
      collect() {
        for (const [queue, depth] of Object.entries(sources.queueDepths?.() ?? {}))
          this.set({ queue }, depth);
      },
    });
    new Gauge({
      name: 'switchyard_request_body_bytes',
      help: 'Bytes of request bodies held in memory, counted against REQUEST_BODY_BUDGET',
      registers,
      collect() {
        this.set(sources.bodyBytesHeld?.() ?? 0);
      },
    });
    new Gauge({
      name: 'switchyard_db_pool_connections',
      help: 'Database pool connections by state (open, idle) and queries waiting for one (PostgreSQL, MySQL)',
      labelNames: ['state'],
      registers,
      collect() {
        const use = sources.poolUse?.();
        if (!use) return;
        this.set({ state: 'open' }, use.open);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
  }
}
