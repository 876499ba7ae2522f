import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyTooLarge } from './api/errors';
import { DomainError } from './domain/errors';

/** Refused because the bodies already in memory fill REQUEST_BODY_BUDGET: 503, try again shortly. */
class BodyBudgetFull extends DomainError {
  /** Read by Fastify when the refusal comes out of a body stream. */
  readonly statusCode = 503;

  constructor() {
    super('body_budget_full', {}, 503);
  }
}

/** Bytes of request bodies held across all calls, refused beyond the capacity. */
class BodyBudget {
  #held = 0;

  constructor(private readonly capacity: number) {}

  take(bytes: number): boolean {
    if (this.#held + bytes > this.capacity) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held -= bytes;
  }
}

/** Fastify reads no body for these, whatever the headers say. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

const hasBody = (request: FastifyRequest) =>
  !BODYLESS.has(request.method) &&
  (request.headers['transfer-encoding'] !== undefined ||
    (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0'));

/**
 * Refuses a declared body over the route's limit before reading it, and bounds what all calls'
 * bodies may hold in memory together (REQUEST_BODY_BUDGET). A body with Content-Length reserves its
 * length before a byte is read; a chunked one is counted as it arrives. What a call held comes back
 * when its answer ends or its connection closes, whichever way. Runs after the caller is checked
 * (onRequest), so anonymous callers of protected routes never take any of it.
 */
export function installBodyBudget(app: FastifyInstance, capacity: number): void {
  const budget = new BodyBudget(capacity);
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!hasBody(request)) return undefined;
    let held = 0;
    reply.raw.once('close', () => budget.give(held));
    const full = () => {
      reply.raw.setHeader('retry-after', '1');
      return new BodyBudgetFull();
    };
    if (request.headers['transfer-encoding'] === undefined) {
      const declared = Number(request.headers['content-length']);
      if (!Number.isSafeInteger(declared)) return undefined; // Fastify refuses it
      // Refused here rather than by Fastify, which would close the connection on a client still
      // sending: this way it reads the answer (and what it sends is read and dropped).
      const limit = request.routeOptions.bodyLimit;
      if (declared > limit) throw bodyTooLarge(limit);
      if (!budget.take(declared)) throw full();
      held = declared;
      return undefined;
    }
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (!budget.take(chunk.length)) {
          callback(full());
          return;
        }
        held += chunk.length;
        callback(null, chunk);
      },
    });
    payload.once('error', (error) => counter.destroy(error));
    return payload.pipe(counter);
  });
}
