import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors';
import type { RelayMode } from '../adaptors/types';
import { RelayError } from '../errors';
import { authenticate, type RelayCaller } from '../pipeline/authenticate';
import type { IncomingCall } from '../pipeline/call';
import type { ChannelRouter } from '../pipeline/channel-router';
import type { IdentityCache } from '../pipeline/identity-cache';
import type { Realtime } from '../pipeline/realtime/realtime';
import type { Relay } from '../pipeline/relay';
import { type SpooledForm, spoolForm } from '../pipeline/spooled-form';
import type { VideoJobs } from '../pipeline/video-jobs';
import { anthropicRoutes } from './anthropic/routes';
import { bodyRefusal } from './body-refusal';
import { geminiRoutes } from './gemini/routes';
import { bearerKey, type JsonRelayRoute, serveJsonCall } from './json-route';
import { modelObject } from './models';
import { keepRawBodies } from './raw-body';
import { modelsForCaller } from './reachable-models';
import { realtimeRoutes } from './realtime/routes';
import { routeUpgrades } from './realtime/upgrade';
import { CORS_HEADERS, hijackedSink } from './reply-sink';
import { newRequestId } from './request-id';
import { responsesRoute, storedResponseRoutes } from './responses/routes';
import { type ErrorFormat, sendError } from './send-error';
import { videoRoutes } from './videos/routes';

export interface RelayRouteDeps {
  relay: Relay;
  router: ChannelRouter;
  identities: IdentityCache;
  videoJobs: VideoJobs;
  /** The largest body a relay call may send, in bytes (RELAY_BODY_LIMIT). */
  bodyLimit: number;
  realtime: Realtime;
  /** The largest message of a realtime session, in bytes (REALTIME_MESSAGE_LIMIT). */
  realtimeMessageLimit: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The relay call's id and its authenticated caller, known before its body is read. */
    relayCall: { requestId: string; caller: RelayCaller };
  }
}

const RELAY_ROUTES: Array<[string, RelayMode]> = [
  ['/v1/chat/completions', 'chat'],
  ['/v1/completions', 'completions'],
  ['/v1/embeddings', 'embeddings'],
  ['/v1/engines/:model/embeddings', 'embeddings'],
  ['/v1/moderations', 'moderations'],
  ['/v1/images/generations', 'images'],
  ['/v1/images/edits', 'image-edit'],
  ['/v1/images/variations', 'image-variation'],
  ['/v1/audio/speech', 'audio-speech'],
  ['/v1/audio/transcriptions', 'audio-transcription'],
  ['/v1/audio/translations', 'audio-translation'],
  ['/v1/rerank', 'rerank'],
  // Cohere's SDKs call their v2 path: the same call, the same answer (it has Cohere's fields).
  ['/v2/rerank', 'rerank'],
];

/** Uploads of pictures, which may be large: spooled to disk, never held in memory whole. */
const UPLOAD_MODES: ReadonlySet<RelayMode> = new Set(['image-edit', 'image-variation']);

const isReadable = (body: unknown): body is Readable => body instanceof Readable;

/** OpenAI endpoints we do not serve: answered 501 in OpenAI's error shape. */
export const NOT_IMPLEMENTED = [
  ['POST', '/v1/edits'],
  ['GET', '/v1/files'],
  ['POST', '/v1/files'],
  ['DELETE', '/v1/files/:id'],
  ['GET', '/v1/files/:id'],
  ['GET', '/v1/files/:id/content'],
  ['POST', '/v1/fine_tuning/jobs'],
  ['GET', '/v1/fine_tuning/jobs'],
  ['GET', '/v1/fine_tuning/jobs/:id'],
  ['POST', '/v1/fine_tuning/jobs/:id/cancel'],
  ['GET', '/v1/fine_tuning/jobs/:id/events'],
  ['DELETE', '/v1/models/:model'],
  ['POST', '/v1/assistants'],
  ['GET', '/v1/assistants'],
  ['GET', '/v1/assistants/:id'],
  ['POST', '/v1/assistants/:id'],
  ['DELETE', '/v1/assistants/:id'],
  ['POST', '/v1/threads'],
  ['GET', '/v1/threads/:id'],
  ['POST', '/v1/threads/:id'],
  ['DELETE', '/v1/threads/:id'],
  ['POST', '/v1/threads/:id/messages'],
  ['GET', '/v1/threads/:id/messages'],
  ['POST', '/v1/threads/:id/runs'],
  ['GET', '/v1/threads/:id/runs'],
  ['POST', '/v1/threads/runs'],
  ['POST', '/v1/batches'],
  ['GET', '/v1/batches'],
] as const;

/** OpenAI's JSON routes: the body passed to the relay as bytes, with its path and query as sent. */
function openAiRoutes(relay: Relay): JsonRelayRoute[] {
  return RELAY_ROUTES.filter(([, mode]) => !UPLOAD_MODES.has(mode)).map(([path, mode]) => ({
    path,
    format: 'openai',
    keyOf: bearerKey,
    serve: ({ requestId, caller, url, headers, rawBody, pathModel }, sink) =>
      relay.handle(caller, { ...incomingCall(url, headers, requestId, mode, rawBody), pathModel }, sink),
  }));
}

/** The call a /v1 route hands the relay: its path and query as sent, its body as bytes. */
function incomingCall(
  url: string,
  headers: IncomingHttpHeaders,
  requestId: string,
  mode: RelayMode,
  rawBody: Buffer,
): IncomingCall {
  const queryAt = url.indexOf('?');
  return {
    requestId,
    mode,
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    query: queryAt === -1 ? '' : url.slice(queryAt),
    rawBody,
    contentType: headers['content-type'] ?? 'application/json',
  };
}

const bodyOf = (request: FastifyRequest): Buffer =>
  Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);

/**
 * The OpenAI-compatible /v1 surface. Bodies are kept as bytes, so what is not ours passes through
 * untouched. Answers the routes whose bodies are read whole, which the direct path (direct.ts) may serve.
 */
export async function relayRoutes(app: FastifyInstance, deps: RelayRouteDeps): Promise<JsonRelayRoute[]> {
  routeUpgrades(app);
  const jsonRoutes = [
    ...openAiRoutes(deps.relay),
    ...anthropicRoutes(deps.relay),
    responsesRoute(deps.relay),
  ];
  // Fastify's refusals of a body are answered in the shape its route speaks.
  const errorFormats = new Map(jsonRoutes.map((route) => [route.path, route.format]));
  await app.register(async (scope) => {
    keepRawBodies(scope);
    scope.decorateRequest('relayCall', undefined as never);
    scope.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
      const format = errorFormats.get(request.routeOptions.url ?? '') ?? 'openai';
      // Fastify's own headers go along: `connection: close` when a body was refused half read.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      sendError(
        reply.hijack(),
        newRequestId(),
        bodyRefusal(error, request.routeOptions.bodyLimit),
        request.log,
        format,
      );
    });
    const routeConfig = { compress: false as const };

    /** The key is checked from the headers: a caller without a valid one never gets its body read. */
    const authenticated =
      (keyOf: (request: FastifyRequest) => string | undefined, format: ErrorFormat = 'openai') =>
      async (request: FastifyRequest, reply: FastifyReply) => {
        const requestId = newRequestId();
        try {
          const caller = await authenticate(deps.identities, keyOf(request), request.ip);
          request.relayCall = { requestId, caller };
          request.bodyOwner = caller.user.id;
        } catch (error) {
          sendError(reply.hijack(), requestId, error, request.log, format);
        }
      };
    const relayRoute = (
      keyOf: (request: FastifyRequest) => string | undefined,
      format: ErrorFormat = 'openai',
    ) => ({ ...routeConfig, bodyLimit: deps.bodyLimit, onRequest: authenticated(keyOf, format) });
    const bearerKeyOf = (request: FastifyRequest) => bearerKey(request.headers);

    for (const route of jsonRoutes) {
      const options = relayRoute((request) => route.keyOf(request.headers), route.format);
      scope.post<{ Params: { model?: string } }>(route.path, options, async (request, reply) => {
        const { requestId, caller } = request.relayCall;
        const { url, headers, params } = request;
        const call = { requestId, caller, url, headers, rawBody: bodyOf(request), pathModel: params.model };
        await serveJsonCall(route, call, reply.hijack().raw, request.log);
      });
    }

    await scope.register(async (uploads) => {
      // Their multipart bodies are not buffered: the handler spools the files to disk as they come.
      uploads.addContentTypeParser('multipart/form-data', (_request, payload, done) => done(null, payload));
      for (const [path, mode] of RELAY_ROUTES) {
        if (!UPLOAD_MODES.has(mode)) continue;
        uploads.post(path, relayRoute(bearerKeyOf), async (request, reply) => {
          const { requestId, caller } = request.relayCall;
          const incoming = incomingCall(request.url, request.headers, requestId, mode, bodyOf(request));
          let upload: SpooledForm | undefined;
          try {
            // A declared length over the limit was refused from the headers (http/body-budget).
            if (isReadable(request.body)) {
              upload = await spoolForm(request.body, incoming.contentType, deps.bodyLimit);
            }
            await deps.relay.handle(
              caller,
              { ...incoming, ...(upload ? { upload } : {}) },
              hijackedSink(reply, requestId),
            );
          } catch (error) {
            const refusal =
              error instanceof DomainError ? bodyRefusal(error, request.routeOptions.bodyLimit) : error;
            sendError(reply, requestId, refusal, request.log);
          } finally {
            await upload?.dispose();
          }
        });
      }
    });

    // Stored responses of OpenAI's Responses API: this gateway keeps none.
    storedResponseRoutes(scope, { routeOptions: relayRoute(bearerKeyOf), sendError });

    // Video generation jobs (Sora, and Veo on Gemini channels), billed when they complete.
    videoRoutes(scope, { videoJobs: deps.videoJobs, routeOptions: relayRoute(bearerKeyOf), sendError });
    // OpenAI's Realtime API: a WebSocket relayed to OpenAI and Azure channels, billed per response.
    realtimeRoutes(scope, {
      realtime: deps.realtime,
      messageLimit: deps.realtimeMessageLimit,
      routeOptions: (keyOf) => relayRoute(keyOf),
      sendError,
    });

    scope.get('/v1/models', routeConfig, async (request, reply) => {
      const requestId = newRequestId();
      try {
        const models = await reachableModels(deps, request);
        return reply
          .header('x-oneapi-request-id', requestId)
          .send({ object: 'list', data: models.map(modelObject) });
      } catch (error) {
        sendError(reply.hijack(), requestId, error, request.log);
      }
    });

    scope.get<{ Params: { model: string } }>('/v1/models/:model', routeConfig, async (request, reply) => {
      const requestId = newRequestId();
      try {
        const models = await reachableModels(deps, request);
        if (!models.includes(request.params.model)) {
          throw RelayError.invalid(`The model '${request.params.model}' does not exist`, 'model_not_found', {
            status: 404,
            param: 'model',
          });
        }
        return reply.header('x-oneapi-request-id', requestId).send(modelObject(request.params.model));
      } catch (error) {
        sendError(reply.hijack(), requestId, error, request.log);
      }
    });

    // Answered from the headers (onRequest), so that no body is ever read for them.
    const notImplemented = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(501)
        .send(
          RelayError.gateway(
            501,
            'This OpenAI endpoint is not served by this gateway',
            'api_not_implemented',
          ).body(''),
        );
    for (const [method, path] of NOT_IMPLEMENTED) {
      scope.route({ method, url: path, ...routeConfig, onRequest: notImplemented, handler: notImplemented });
    }
    // one-api's pass-through for Proxy channels (type 43) relays without billing: not served at all.
    const proxyRefused = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(501)
        .send(
          RelayError.gateway(
            501,
            "one-api's proxy route (/v1/oneapi/proxy/{channel}/…) is not served by this gateway: it would relay without billing. Proxy channels are kept but not used",
            'proxy_route_not_served',
          ).body(''),
        );
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
      url: '/v1/oneapi/proxy/*',
      ...routeConfig,
      onRequest: proxyRefused,
      handler: proxyRefused,
    });

    const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.headers(CORS_HEADERS).code(204).send();
    scope.options('/v1/*', { onRequest: preflight }, preflight);
  });
  // Google's Gemini API (/v1beta/models/{model}:{action}): its own scope, errors in Google's shape.
  await geminiRoutes(app, deps);
  return jsonRoutes;
}

/** The models the key in the Authorization header may call. */
async function reachableModels(deps: RelayRouteDeps, request: FastifyRequest): Promise<string[]> {
  const caller = await authenticate(deps.identities, request.headers.authorization, request.ip);
  return modelsForCaller(deps.router, caller);
}
