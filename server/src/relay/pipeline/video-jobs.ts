import { randomBytes } from 'node:crypto';
import { channelBaseUrl } from '@switchyard/contract/channels';
import { videoQuota } from '@switchyard/contract/videos';
import type { FastifyBaseLogger } from 'fastify';
import { nowSeconds } from '../../clock';
import type { Sql } from '../../db/connect';
import {
  insertChargedVideoJob,
  refundChargedVideoJob,
  settleChargedVideoJob,
} from '../../db/repos/video-job-charges';
import {
  deleteVideoJob,
  findVideoJob,
  listOverdueVideoJobs,
  listVideoJobs,
  listVideoJobsToPoll,
  updateRunningVideoJob,
} from '../../db/repos/video-jobs';
import type { ChannelRow, VideoJobRow } from '../../db/schema';
import type { Billing, CallRecord, Reservation } from '../../domain/billing';
import { upstreamError } from '../adaptors/upstream-error';
import { videoWireOf } from '../adaptors/videos';
import type { UpstreamVideoState, VideoChannel, VideoCreation, VideoVariant } from '../adaptors/videos/types';
import type { ClientSignal } from '../client-signal';
import { badUpstreamAnswer, databaseUnavailable, RelayError } from '../errors';
import { asObject, type Json } from '../json-value';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream';
import { checkModelAllowed, type RelayCaller } from './authenticate';
import type { ChannelRouter } from './channel-router';
import type { ClientSink } from './client-sink';
import type { KeyLimits } from './key-limits';
import { modelMappingOf } from './model-mapping';
import { payerOf, reserve } from './reserve';
import { firstChannel } from './route';

export interface VideoJobsDeps {
  db: Sql;
  billing: Billing;
  router: ChannelRouter;
  upstream: UpstreamClient;
  /** The keys' rate limits: a job's creation counts as one request (its polls and downloads do not). */
  limits?: KeyLimits;
  logger?: FastifyBaseLogger;
  /** A job not finished this long after it was made expires, its quota given back (VIDEO_JOB_TIMEOUT). */
  expireAfterSeconds: number;
}

/** What the client asked for, before a channel is chosen. */
export type VideoOrder = Omit<VideoCreation, 'upstreamModel'>;

/** Jobs looked at per background round, and at once. */
const POLL_BATCH = 50;
const POLL_CONCURRENCY = 4;

/** Our job ids: opaque, and unlike any provider's. */
/**
 * The creation time in milliseconds, then 80 random bits: jobs created in the same second (the
 * resolution of `created_at`) still list newest first.
 */
const newJobId = () =>
  `video_sy${Date.now().toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`;

export const videoJobNotFound = (id: string) =>
  RelayError.invalid(`No video job with id '${id}' was found`, 'video_not_found', { status: 404 });

const notReady = () =>
  RelayError.invalid('The video is not ready: its job has not completed', 'video_not_ready', { status: 409 });

/** The job as a settled call, for its consumption log (billing.consumeLog). */
function reservationOf(job: VideoJobRow): Reservation {
  return {
    payer: {
      userId: job.user_id,
      username: job.username,
      tokenId: job.token_id,
      tokenName: job.token_name,
      unlimitedToken: Boolean(job.unlimited_token),
      ...(job.budget_period ? { budgetPeriod: job.budget_period } : {}),
    },
    amount: job.quota,
    holder: job.holder,
  };
}

/**
 * The seconds a finished job is billed for: what the provider says it made, never more than was
 * asked for and held (a provider's report is no reason to charge past the quoted price).
 */
function billedSeconds(job: VideoJobRow, state: UpstreamVideoState): number {
  const made = state.seconds;
  if (made === undefined || !(made > 0)) return job.seconds;
  return Math.min(Math.ceil(made), job.seconds);
}

/** What a finished job costs: its price as quoted when made, scaled to the seconds billed. */
function costOf(job: VideoJobRow, seconds: number): number {
  if (seconds === job.seconds || job.seconds <= 0) return job.quota;
  return Math.ceil((job.quota * seconds) / job.seconds);
}

/**
 * Video generation jobs: made on a channel with the job's whole price charged to its row, looked at
 * through the same channel (by the client, and in the background), settled once when the provider
 * says it is done (what it did not cost given back), given back whole when it failed, vanished
 * upstream or took longer than VIDEO_JOB_TIMEOUT. Every change of billing is a guarded move of the
 * row's billing in the transaction that moves the quota (db/repos/video-job-charges.ts), so
 * concurrent pollers in any process settle or refund a job once, and no crash gives its charge back.
 */
export class VideoJobs {
  constructor(private readonly deps: VideoJobsDeps) {}

  /** Makes a job upstream for `caller`, its price held first; answers its row. */
  async create(caller: RelayCaller, order: VideoOrder, sink: ClientSink): Promise<VideoJobRow> {
    checkModelAllowed(caller, order.model);
    const request = {
      mode: 'videos' as const,
      model: order.model,
      isStream: false,
      maxTokens: 0,
      body: undefined,
      rawBody: Buffer.alloc(0),
      contentType: '',
    };
    const admission = await this.deps.limits?.admit(caller, request, sink);
    try {
      return await this.#create(caller, order, sink.signal);
    } finally {
      admission?.release();
    }
  }

  async #create(caller: RelayCaller, order: VideoOrder, signal: ClientSignal): Promise<VideoJobRow> {
    const { billing, router, db } = this.deps;
    const group = caller.user.group || 'default';
    const channel = await firstChannel(router, caller, group, order.model);
    const wire = videoWireOf(channel);
    if (!wire) {
      throw RelayError.invalid(
        `The channel serving ${order.model} does not make videos (OpenAI-compatible and Gemini channels do)`,
        'video_not_supported',
      );
    }
    const price = billing.price(order.model, group, channel.type);
    const quota = videoQuota(price.ratio, order.model, order.seconds, order.size);
    const payer = payerOf(caller);
    const reservation = await reserve(this.deps, payer, quota, quota, caller);
    const now = nowSeconds();
    const job: VideoJobRow = {
      id: newJobId(),
      user_id: payer.userId,
      username: payer.username,
      token_id: payer.tokenId,
      token_name: payer.tokenName,
      user_group: group,
      unlimited_token: payer.unlimitedToken,
      budget_period: payer.budgetPeriod ?? '',
      channel_id: channel.id,
      upstream_id: '',
      model: order.model,
      seconds: order.seconds,
      size: order.size,
      status: 'queued',
      progress: 0,
      quota: reservation.amount,
      holder: reservation.holder,
      billing: 'charged',
      error: '',
      created_at: now,
      updated_at: now,
      finished_at: 0,
    };
    // The hold becomes the job's charge, with its row: a process killed before the provider answers
    // leaves a job that expires with a refund.
    let charged: boolean;
    try {
      charged = await insertChargedVideoJob(db, job, reservation);
    } catch (error) {
      await billing.refund(reservation);
      throw error;
    }
    if (!charged) {
      // The hold was swept (this process lost its lease): nothing was charged.
      await billing.refund(reservation);
      throw databaseUnavailable();
    }
    reservation.closed = true;
    let created: { upstreamId: string; state: UpstreamVideoState };
    try {
      const upstreamModel = modelMappingOf(channel.model_mapping)[order.model] || order.model;
      const on = this.#on(channel);
      const answer = await this.#exchange(on, await wire.create(on, { ...order, upstreamModel }), signal);
      const read = wire.readCreated(answer);
      if (!read) throw badUpstreamAnswer(`a ${wire.name} job`);
      created = read;
    } catch (error) {
      // Guarded like every refund: a job that expired meanwhile was already given back.
      const now = nowSeconds();
      await refundChargedVideoJob(db, job, { status: 'failed', updated_at: now, finished_at: now });
      await deleteVideoJob(db, job.id);
      throw error;
    }
    job.upstream_id = created.upstreamId;
    job.updated_at = nowSeconds();
    await updateRunningVideoJob(db, job.id, { upstream_id: job.upstream_id, updated_at: job.updated_at });
    return this.#apply(job, created.state);
  }

  /** The job `id` of the caller's user (any of the user's keys); 404 for anyone else's, as for none. */
  async owned(caller: RelayCaller, id: string): Promise<VideoJobRow> {
    const job = id.length <= 48 ? await findVideoJob(this.deps.db, id) : undefined;
    if (!job || job.user_id !== caller.user.id) throw videoJobNotFound(id);
    return job;
  }

  /** The caller's user's jobs, newest first unless `order` says otherwise, after the job `after`. */
  async list(
    caller: RelayCaller,
    { after, limit, order }: { after?: string; limit: number; order: 'asc' | 'desc' },
  ): Promise<VideoJobRow[]> {
    const from = after ? await this.owned(caller, after) : undefined;
    return listVideoJobs(this.deps.db, { userId: caller.user.id, after: from, limit, order });
  }

  /** The job as the provider sees it now (a finished one as it ended), charged or refunded when it ended. */
  async refresh(job: VideoJobRow, signal?: ClientSignal): Promise<VideoJobRow> {
    if (job.billing !== 'charged' || job.upstream_id === '') return job;
    const looked = await this.#look(job, signal);
    if (looked === 'gone') return this.#refund(job, 'expired', 'The job is gone from the provider');
    if (looked === 'unknown') {
      // Looked at all the same: the background goes on to other jobs before this one again.
      const seen = { updated_at: nowSeconds() };
      await updateRunningVideoJob(this.deps.db, job.id, seen);
      return { ...job, ...seen };
    }
    return this.#apply(job, looked.state);
  }

  /**
   * The job's result, streamed from the provider through the job's channel (never held whole).
   * `sample` picks one of several videos (Veo).
   */
  async content(
    job: VideoJobRow,
    variant: VideoVariant,
    sample: number,
    signal: ClientSignal,
  ): Promise<UpstreamResponse> {
    if (job.status !== 'completed') throw notReady();
    const channel = await this.deps.router.channel(job.channel_id);
    const wire = channel && videoWireOf(channel);
    if (!channel || !wire) {
      throw RelayError.gateway(410, 'The channel this video was made on is gone', 'video_channel_gone');
    }
    const on = this.#on(channel);
    const polled = wire.downloadNeedsState
      ? await this.#exchange(on, wire.poll(on, job.upstream_id), signal)
      : {};
    const request = wire.download(on, job.upstream_id, variant, polled, sample);
    if (!request) {
      throw RelayError.invalid(
        `This video has no ${variant} ${sample > 0 ? `number ${sample}` : ''}`.trim(),
        'variant_not_found',
        {
          status: 404,
        },
      );
    }
    const upstream = this.deps.upstream.forCall(performance.now());
    const response = await upstream.send(request, signal);
    if (response.status >= 400) {
      const body = await upstream.readWhole(response.body);
      throw upstreamError(response.status, body).withoutSecrets(channel.key);
    }
    return response;
  }

  /**
   * One background round: looks at jobs nobody looked at for `everySeconds`, and expires those older
   * than VIDEO_JOB_TIMEOUT.
   */
  async sweep(everySeconds: number): Promise<void> {
    const { db, expireAfterSeconds } = this.deps;
    const now = nowSeconds();
    for (const job of await listOverdueVideoJobs(db, now - expireAfterSeconds, POLL_BATCH)) {
      await this.#refund(job, 'expired', `The job did not finish within ${expireAfterSeconds} s`);
    }
    const due = await listVideoJobsToPoll(db, now - everySeconds + 1, POLL_BATCH);
    const workers = Array.from({ length: POLL_CONCURRENCY }, async () => {
      for (let job = due.shift(); job; job = due.shift()) {
        await this.refresh(job).catch((error: unknown) =>
          this.deps.logger?.warn({ err: error, job: job?.id }, 'video job poll failed'),
        );
      }
    });
    await Promise.all(workers);
  }

  /** Asks the provider for the job's state: 'gone' when it answers 404, 'unknown' when it cannot say. */
  async #look(
    job: VideoJobRow,
    signal?: ClientSignal,
  ): Promise<{ state: UpstreamVideoState } | 'gone' | 'unknown'> {
    const channel = await this.deps.router.channel(job.channel_id);
    const wire = channel && videoWireOf(channel);
    if (!channel || !wire) return 'unknown';
    try {
      const on = this.#on(channel);
      const answer = await this.#exchange(on, wire.poll(on, job.upstream_id), signal);
      const state = wire.readState(answer);
      return state ? { state } : 'unknown';
    } catch (error) {
      if (error instanceof RelayError && error.origin === 'upstream' && error.status === 404) return 'gone';
      this.deps.logger?.warn({ err: error, job: job.id }, 'video job state not read');
      return 'unknown';
    }
  }

  async #apply(job: VideoJobRow, state: UpstreamVideoState): Promise<VideoJobRow> {
    if (state.status === 'completed') return this.#settle(job, state);
    if (state.status === 'failed')
      return this.#refund(job, 'failed', state.error ?? 'The provider failed the job');
    const changes = { status: state.status, progress: state.progress, updated_at: nowSeconds() };
    await updateRunningVideoJob(this.deps.db, job.id, changes);
    return { ...job, ...changes };
  }

  /** Settles a completed job once: only the caller whose guarded move settles it gives back and logs. */
  async #settle(job: VideoJobRow, state: UpstreamVideoState): Promise<VideoJobRow> {
    const { db, billing } = this.deps;
    const now = nowSeconds();
    const seconds = billedSeconds(job, state);
    const cost = costOf(job, seconds);
    const finished = { status: 'completed', progress: 100, seconds, updated_at: now, finished_at: now };
    const channel = await this.deps.router.channel(job.channel_id);
    const call: CallRecord = {
      reservation: reservationOf(job),
      price: billing.price(job.model, job.user_group || 'default', channel?.type ?? 0),
      model: job.model,
      channelId: job.channel_id,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      fixedQuota: cost,
      requestId: job.id,
      isStream: false,
      elapsedMs: (now - job.created_at) * 1000,
    };
    const log = billing.consumeLog(call, cost);
    if (!(await settleChargedVideoJob(db, job, finished, cost, log))) {
      return (await findVideoJob(db, job.id)) ?? job;
    }
    billing.chargedElsewhere(call, cost);
    return { ...job, ...finished, billing: 'settled', quota: cost };
  }

  /** Gives a job's charge back once, the job failed or expired. */
  async #refund(job: VideoJobRow, status: 'failed' | 'expired', why: string): Promise<VideoJobRow> {
    const { db } = this.deps;
    const now = nowSeconds();
    const ended = { status, error: why.slice(0, 500), updated_at: now, finished_at: now };
    if (!(await refundChargedVideoJob(db, job, ended))) {
      return (await findVideoJob(db, job.id)) ?? job;
    }
    return { ...job, ...ended, billing: 'refunded', quota: 0 };
  }

  #on(channel: ChannelRow): VideoChannel {
    return { channel, baseUrl: channelBaseUrl(channel) };
  }

  /** One JSON exchange with the provider: its error passed on (the key taken out), its answer an object. */
  async #exchange(on: VideoChannel, request: UpstreamRequest, signal?: ClientSignal): Promise<Json> {
    const upstream = this.deps.upstream.forCall(performance.now());
    const response = await upstream.send(request, signal ?? neverAborted);
    const body = await upstream.readWhole(response.body);
    if (response.status >= 400) throw upstreamError(response.status, body).withoutSecrets(on.channel.key);
    let answer: Json | undefined;
    try {
      answer = asObject(JSON.parse(body.toString()));
    } catch {
      answer = undefined;
    }
    if (!answer) throw badUpstreamAnswer('a JSON object');
    return answer;
  }
}

/** The background's requests have no client to go away. */
const neverAborted: ClientSignal = {
  aborted: false,
  addEventListener: () => {},
  removeEventListener: () => {},
};
