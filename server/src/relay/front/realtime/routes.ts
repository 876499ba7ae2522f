import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { WebSocketServer } from 'ws';
import type { EphemeralKeyKind } from '../../adaptors/realtime/endpoints';
import { RelayError } from '../../errors';
import type { Realtime } from '../../pipeline/realtime/realtime';
import { CORS_HEADERS } from '../reply-sink';
import { upgradeOf } from './upgrade';

export interface RealtimeRouteDeps {
  realtime: Realtime;
  /** Largest message either side of a session may send (REALTIME_MESSAGE_LIMIT). */
  messageLimit: number;
  /** The relay's route options for a key read by `keyOf` (checked from the headers, before anything else). */
  routeOptions: (keyOf: (request: FastifyRequest) => string | undefined) => RouteShorthandOptions;
  sendError: (reply: FastifyReply, requestId: string, error: unknown, log: FastifyRequest['log']) => void;
}

/** The subprotocol a browser sends its key in (browsers cannot set an Authorization header). */
const KEY_PROTOCOL = 'openai-insecure-api-key.';
/** The subprotocol that asks for the beta interface, as `OpenAI-Beta: realtime=v1` does. */
const BETA_PROTOCOL = 'openai-beta.realtime-v1';

const protocolsOf = (headers: IncomingHttpHeaders): string[] =>
  String(headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((protocol) => protocol.trim())
    .filter(Boolean);

/** The key: `Authorization: Bearer …`, else the `openai-insecure-api-key.<key>` subprotocol. */
export function realtimeKeyOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return request.headers.authorization;
  const offered = protocolsOf(request.headers).find((protocol) => protocol.startsWith(KEY_PROTOCOL));
  return offered?.slice(KEY_PROTOCOL.length);
}

/** The subprotocol answered: `realtime` when offered, else any the client offered but its key. */
function chosenProtocol(protocols: Set<string>): string | false {
  if (protocols.has('realtime')) return 'realtime';
  return [...protocols].find((protocol) => !protocol.startsWith(KEY_PROTOCOL)) ?? false;
}

const isWebSocketUpgrade = (headers: IncomingHttpHeaders) =>
  String(headers.upgrade ?? '').toLowerCase() === 'websocket' && Boolean(headers['sec-websocket-key']);

/**
 * OpenAI's Realtime API: `GET /v1/realtime?model=…` upgraded to a WebSocket once the key, the model,
 * the key's limits and the hold are checked and the provider's socket is open (a refusal is an HTTP
 * answer with the usual error body); `POST /v1/realtime/sessions` and `/v1/realtime/client_secrets`
 * mint ephemeral keys when REALTIME_EPHEMERAL_KEYS allows it.
 */
export function realtimeRoutes(scope: FastifyInstance, deps: RealtimeRouteDeps): void {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: deps.messageLimit,
    perMessageDeflate: false,
    handleProtocols: chosenProtocol,
  });
  // The sessions themselves are ended by the app's shutdown, before the books are closed.
  scope.addHook('onClose', async () => sockets.close());

  scope.get<{ Querystring: { model?: string; deployment?: string } }>(
    '/v1/realtime',
    deps.routeOptions(realtimeKeyOf),
    async (request, reply) => {
      const { requestId, caller } = request.relayCall;
      const upgrade = upgradeOf(request.raw);
      try {
        if (!upgrade || !isWebSocketUpgrade(request.headers)) {
          throw RelayError.invalid(
            'The Realtime API is a WebSocket: connect to wss://…/v1/realtime?model=…',
            'websocket_required',
            { status: 426 },
          );
        }
        const model = String(request.query.model || request.query.deployment || '');
        const beta =
          String(request.headers['openai-beta'] ?? '').includes('realtime=v1') ||
          protocolsOf(request.headers).includes(BETA_PROTOCOL);
        const pending = await deps.realtime.open(
          caller,
          { requestId, model, beta },
          {
            setHeader: (name, value) => reply.raw.setHeader(name, value),
          },
        );
        reply.hijack();
        const { socket, head } = upgrade;
        let started = false;
        const abandoned = () => {
          if (!started) void pending.abandon();
        };
        if (socket.destroyed) return abandoned();
        socket.once('close', abandoned);
        sockets.handleUpgrade(request.raw, socket, head, (client) => {
          started = true;
          socket.off('close', abandoned);
          pending
            .start(client)
            .catch((error: unknown) =>
              request.log.error({ err: error, requestId }, 'realtime session failed'),
            );
        });
      } catch (error) {
        deps.sendError(reply, requestId, error, request.log);
      }
    },
  );

  const mintRoute = (kind: EphemeralKeyKind) =>
    scope.post(
      `/v1/realtime/${kind}`,
      deps.routeOptions((request) => request.headers.authorization),
      async (request, reply) => {
        const { requestId, caller } = request.relayCall;
        try {
          const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const minted = await deps.realtime.mint(caller, kind, rawBody);
          reply.hijack();
          reply.raw.writeHead(minted.status, {
            ...CORS_HEADERS,
            'content-type': minted.contentType,
            'x-oneapi-request-id': requestId,
          });
          reply.raw.end(minted.body);
        } catch (error) {
          deps.sendError(reply, requestId, error, request.log);
        }
      },
    );
  mintRoute('sessions');
  mintRoute('client_secrets');
}
