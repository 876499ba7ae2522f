import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError } from '../../domain/errors';
import type { BodyBudgetHandle } from '../../http/body-budget';
import { checkJsonShape } from '../../http/json-shape';
import { authenticate, type RelayCaller } from '../pipeline/authenticate';
import type { IdentityCache } from '../pipeline/identity-cache';
import { bodyRefusal } from './body-refusal';
import { type JsonRelayRoute, serveJsonCall } from './json-route';
import { newRequestId } from './request-id';
import { writeError } from './send-error';

export interface DirectRelayDeps {
  routes: JsonRelayRoute[];
  identities: IdentityCache;
  budget: BodyBudgetHandle;
  /** RELAY_BODY_LIMIT, in bytes. */
  bodyLimit: number;
  /** TRUSTED_PROXIES: whose X-Forwarded-For names the client. */
  trustedProxies: string[];
  log: FastifyBaseLogger;
  /** Hands a request to Fastify, which serves every case this path leaves to it. */
  fastify: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * The relay's JSON calls in their common case, served from node:http ahead of Fastify (whose
 * routing, hooks and request objects cost more than the rest of a call's own work: docs/decisions.md
 * "The relay's direct path"): a POST to a route's exact path with a declared length within the limit,
 * no content or transfer encoding, a valid key and its whole body already arrived. Everything else
 * (bodies still coming, compressed or chunked, a full budget, a server closing, any other route) goes
 * to Fastify, which serves it as it serves every call: the rules live there, this path only keeps to
 * the same answers for the calls it takes.
 */
export class DirectRelay {
  readonly #routes: Map<string, JsonRelayRoute>;
  readonly #trusted: (address: string, hop: number) => boolean;
  #closing = false;
  #served = 0;

  constructor(private readonly deps: DirectRelayDeps) {
    this.#routes = new Map(deps.routes.filter((route) => !route.path.includes(':')).map((r) => [r.path, r]));
    this.#trusted = proxyAddr.compile(deps.trustedProxies);
  }

  /** Calls this path served itself, not handed to Fastify (tests). */
  get served(): number {
    return this.#served;
  }

  /** From now on every call goes to Fastify, which answers 503 while the server closes. */
  close(): void {
    this.#closing = true;
  }

  /** node:http's request listener. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    const route = this.#routeOf(req);
    const declared = route && this.#declaredLength(req);
    if (!route || declared === undefined) {
      this.deps.fastify(req, res);
      return;
    }
    this.#serve(route, req, res, declared).catch((error: unknown) => {
      this.deps.log.error({ err: error }, 'relay call failed');
      res.destroy();
    });
  };

  #routeOf(req: IncomingMessage): JsonRelayRoute | undefined {
    if (this.#closing || req.method !== 'POST') return undefined;
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    return this.#routes.get(queryAt === -1 ? url : url.slice(0, queryAt));
  }

  /** The body's declared length when this path may read it; undefined for what Fastify must. */
  #declaredLength(req: IncomingMessage): number | undefined {
    const { headers } = req;
    if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return;
    const type = headers['content-type'];
    if (type === undefined || type.startsWith('multipart/')) return;
    const declared = Number(headers['content-length']);
    if (!Number.isSafeInteger(declared) || declared <= 0 || declared > this.deps.bodyLimit) return;
    return declared;
  }

  async #serve(route: JsonRelayRoute, req: IncomingMessage, res: ServerResponse, declared: number) {
    const { deps } = this;
    const requestId = newRequestId();
    let caller: RelayCaller;
    try {
      // Awaited even when answered at once from memory: node:http pushes the body that came in the
      // packet of the headers only after this request's event, and the check below needs it there.
      caller = await authenticate(deps.identities, route.keyOf(req.headers), proxyAddr(req, this.#trusted));
    } catch (error) {
      // As Fastify's path: refused from the headers, its body never read.
      writeError(res, requestId, error, deps.log, route.format);
      return;
    }
    // Wholly arrived: its declared length is buffered (a small body comes in the packet of its headers).
    const charge =
      req.readableLength === declared ? deps.budget.holdArrived(caller.user.id, res, declared) : undefined;
    if (!charge) {
      // Still arriving (metered, timed out) or over the budget (refused with its Retry-After): Fastify's.
      deps.fastify(req, res);
      return;
    }
    const rawBody = (req.read() as Buffer | null) ?? Buffer.alloc(0);
    try {
      charge(checkJsonShape(rawBody));
    } catch (error) {
      const refusal = error instanceof DomainError ? bodyRefusal(error, deps.bodyLimit) : error;
      writeError(res, requestId, refusal, deps.log, route.format);
      return;
    }
    const call = { requestId, caller, url: req.url ?? route.path, headers: req.headers, rawBody };
    this.#served += 1;
    await serveJsonCall(route, call, res, deps.log);
  }
}
