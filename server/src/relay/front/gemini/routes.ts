import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainError } from '../../../domain/errors';
import { authenticate, type RelayCaller } from '../../pipeline/authenticate';
import type { IdentityCache } from '../../pipeline/identity-cache';
import type { VideoJobs } from '../../pipeline/video-jobs';
import { bodyRefusal } from '../body-refusal';
import { keepRawBodies } from '../raw-body';
import { modelsForCaller } from '../reachable-models';
import { CORS_HEADERS } from '../reply-sink';
import { newRequestId } from '../request-id';
import { sendError } from '../send-error';
import { type GeminiHandlerDeps, handleModelAction, modelNotFound } from './generate';
import { geminiModel } from './models';
import { googleApiKey } from './reply';
import { downloadVideo, getOperation, isOperationPath, predictLongRunning } from './videos';

export interface GeminiRouteDeps extends GeminiHandlerDeps {
  identities: IdentityCache;
  videoJobs: VideoJobs;
  /** The largest body a relay call may send, in bytes (RELAY_BODY_LIMIT). */
  bodyLimit: number;
}

type GeminiRequest = FastifyRequest<{ Params: { '*': string } }>;

/**
 * Google's Gemini API for `@google/genai` and Gemini CLI: `models/{model}:generateContent`,
 * `:streamGenerateContent`, `:countTokens` under /v1beta (and /v1), and the model list. The model
 * and its action share one path segment (`gemini-pro:generateContent`): a wildcard takes the rest
 * of the path and the action is split off at its last colon.
 */
export async function geminiRoutes(app: FastifyInstance, deps: GeminiRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    keepRawBodies(scope);
    scope.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      sendError(
        reply.hijack(),
        newRequestId(),
        bodyRefusal(error, request.routeOptions.bodyLimit),
        request.log,
        'gemini',
      );
    });

    const callers = new WeakMap<FastifyRequest, { requestId: string; caller: RelayCaller }>();
    /** The key is checked from the headers and query: a caller without a valid one never gets its body read. */
    const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
      const requestId = newRequestId();
      try {
        const caller = await authenticate(deps.identities, googleApiKey(request), request.ip);
        callers.set(request, { requestId, caller });
        request.bodyOwner = caller.user.id;
      } catch (error) {
        sendError(reply.hijack(), requestId, error, request.log, 'gemini');
      }
    };
    const callOf = (request: FastifyRequest) => callers.get(request)!;

    const action = { compress: false as const, bodyLimit: deps.bodyLimit, onRequest };
    const VIDEO_ACTION = ':predictLongRunning';
    const handler = (request: GeminiRequest, reply: FastifyReply) => {
      const target = request.params['*'];
      // Veo: a video job, billed and polled as an operation (front/gemini/videos.ts).
      if (target.endsWith(VIDEO_ACTION)) {
        const model = target.slice(0, -VIDEO_ACTION.length);
        return predictLongRunning(deps.videoJobs, model, request, reply, callOf(request));
      }
      return handleModelAction(deps, request, reply, callOf(request));
    };
    scope.post<{ Params: { '*': string } }>('/v1beta/models/*', action, handler);
    scope.post<{ Params: { '*': string } }>('/v1/models/*', action, handler);

    const listing = { compress: false as const, onRequest };
    scope.get('/v1beta/models', listing, async (request, reply) => {
      const { requestId, caller } = callOf(request);
      const models = await modelsForCaller(deps.router, caller);
      return reply.header('x-oneapi-request-id', requestId).send({ models: models.map(geminiModel) });
    });
    scope.get<{ Params: { '*': string } }>('/v1beta/models/*', listing, async (request, reply) => {
      const { requestId, caller } = callOf(request);
      const path = request.params['*'];
      if (isOperationPath(path)) return getOperation(deps.videoJobs, path, request, reply, callOf(request));
      const model = path.replace(/^models\//, '');
      try {
        if (!(await modelsForCaller(deps.router, caller)).includes(model)) throw modelNotFound(model);
        return reply.header('x-oneapi-request-id', requestId).send(geminiModel(model));
      } catch (error) {
        sendError(reply.hijack(), requestId, error, request.log, 'gemini');
      }
    });

    scope.get<{ Params: { '*': string } }>('/v1beta/files/*', listing, (request, reply) =>
      downloadVideo(deps.videoJobs, request.params['*'], request, reply, callOf(request)),
    );

    const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.headers(CORS_HEADERS).code(204).send();
    scope.options('/v1beta/*', { onRequest: preflight }, preflight);
  });
}
