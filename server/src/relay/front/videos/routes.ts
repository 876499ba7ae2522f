import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { VideoVariant } from '../../adaptors/videos/types';
import { RelayError } from '../../errors';
import type { VideoJobs } from '../../pipeline/video-jobs';
import { hijackedSink } from '../reply-sink';
import type { ErrorFormat } from '../send-error';
import { clientSignalOf, streamContent } from './content';
import { readVideoOrder } from './request';
import { videoObject } from './video-object';

const VARIANTS = new Set<VideoVariant>(['video', 'thumbnail', 'spritesheet']);
const LIST_LIMIT_MAX = 100;

interface VideoRouteDeps {
  videoJobs: VideoJobs;
  routeOptions: RouteShorthandOptions;
  sendError: (
    reply: FastifyReply,
    requestId: string,
    error: unknown,
    log: FastifyRequest['log'],
    format?: ErrorFormat,
  ) => void;
}

type IdRequest = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>;

function listQuery(query: Record<string, string | undefined>) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT_MAX) {
    throw RelayError.invalid(`limit must be from 1 to ${LIST_LIMIT_MAX}`, 'invalid_limit', {
      param: 'limit',
    });
  }
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw RelayError.invalid('order must be asc or desc', 'invalid_order', { param: 'order' });
  }
  return { limit, order: order as 'asc' | 'desc', ...(query.after ? { after: query.after } : {}) };
}

/**
 * OpenAI's video API: POST /v1/videos makes a job (its price held), GET /v1/videos/{id} looks at it
 * (charged once it completed), /content streams its video, GET /v1/videos lists the caller's own.
 * A job belongs to its user: any of the user's keys reads it, anyone else gets 404.
 */
export function videoRoutes(scope: FastifyInstance, deps: VideoRouteDeps): void {
  const { videoJobs, routeOptions, sendError } = deps;

  scope.post('/v1/videos', routeOptions, async (request, reply) => {
    const { requestId, caller } = request.relayCall;
    const sink = hijackedSink(reply, requestId);
    try {
      const order = await readVideoOrder(request.body, String(request.headers['content-type'] ?? ''));
      sink.json(200, videoObject(await videoJobs.create(caller, order, sink)));
    } catch (error) {
      sendError(reply, requestId, error, request.log);
    }
  });

  scope.get<{ Querystring: Record<string, string | undefined> }>(
    '/v1/videos',
    routeOptions,
    async (request, reply) => {
      const { requestId, caller } = request.relayCall;
      try {
        const query = listQuery(request.query);
        const jobs = await videoJobs.list(caller, { ...query, limit: query.limit + 1 });
        const page = jobs.slice(0, query.limit);
        return reply.header('x-oneapi-request-id', requestId).send({
          object: 'list',
          data: page.map(videoObject),
          first_id: page[0]?.id ?? null,
          last_id: page[page.length - 1]?.id ?? null,
          has_more: jobs.length > query.limit,
        });
      } catch (error) {
        sendError(reply.hijack(), requestId, error, request.log);
      }
    },
  );

  scope.get('/v1/videos/:id', routeOptions, async (request: IdRequest, reply) => {
    const { requestId, caller } = request.relayCall;
    try {
      const job = await videoJobs.owned(caller, request.params.id);
      const seen = await videoJobs.refresh(job, clientSignalOf(reply));
      return reply.header('x-oneapi-request-id', requestId).send(videoObject(seen));
    } catch (error) {
      sendError(reply.hijack(), requestId, error, request.log);
    }
  });

  scope.get('/v1/videos/:id/content', routeOptions, async (request: IdRequest, reply) => {
    const { requestId, caller } = request.relayCall;
    try {
      const variant = (request.query.variant ?? 'video') as VideoVariant;
      if (!VARIANTS.has(variant)) {
        throw RelayError.invalid('variant must be video, thumbnail or spritesheet', 'invalid_variant', {
          param: 'variant',
        });
      }
      const signal = clientSignalOf(reply);
      const job = await videoJobs.refresh(await videoJobs.owned(caller, request.params.id), signal);
      const response = await videoJobs.content(job, variant, 0, signal);
      await streamContent(reply.hijack(), requestId, response);
    } catch (error) {
      sendError(reply.hijack(), requestId, error, request.log);
    }
  });
}
