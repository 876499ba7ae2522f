import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { http } from '../../../node-http';

/** The bytes that followed an upgrade request's head, kept for the WebSocket handshake. */
const heads = new WeakMap<IncomingMessage, Buffer>();

/** The socket and first bytes of an upgrade request that reached a route through `routeUpgrades`. */
export function upgradeOf(request: IncomingMessage): { socket: Socket; head: Buffer } | undefined {
  const head = heads.get(request);
  return head ? { socket: request.socket, head } : undefined;
}

/**
 * Routes HTTP upgrade requests through Fastify like any other request, with a response written on
 * their socket: hooks, authentication and refusals (401, 403, 429 with the usual bodies) happen before
 * any handshake, and a route that takes the upgrade hijacks the reply. An upgrade on any other route
 * gets that route's answer (a 404), then the socket is closed; one of another method than GET, a 405.
 */
export function routeUpgrades(app: FastifyInstance): void {
  app.server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node no longer reads the socket after an upgrade request's head: a body could never be read.
    if (request.method !== 'GET') {
      socket.end('HTTP/1.1 405 Method Not Allowed\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    heads.set(request, head);
    socket.on('error', () => socket.destroy());
    const response = new http.ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket);
    response.on('finish', () => socket.end());
    app.routing(request, response);
  });
}
