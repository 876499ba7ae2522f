import type { ServerResponse } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BodyLimits } from '../config/body-limits';
import { DomainError } from '../domain/errors';
import { bodyTooLarge } from './body-errors';
import { hasBody } from './body-limits';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The user whose share of the body budget this call's body counts against, set by the hooks
     * that identify the caller from the headers; unset, the caller is unknown and counted by address.
     */
    bodyOwner: number | undefined;
  }
}

/** Refused because the bodies in memory fill the budget or the caller's share of it: 503, try again shortly. */
class BodyBudgetFull extends DomainError {
  /** Read by Fastify when the refusal comes out of a body stream. */
  readonly statusCode = 503;

  constructor() {
    super('body_budget_full', {}, 503);
  }
}

/** Nothing of the body arrived for REQUEST_BODY_IDLE_TIMEOUT: 408. */
class BodyTimeout extends DomainError {
  readonly statusCode = 408;

  constructor(idleMs: number) {
    super('body_timeout', { seconds: Math.round(idleMs / 1000) }, 408);
  }
}

type BudgetLimits = Pick<
  BodyLimits,
  'bodyBudget' | 'bodyUserShare' | 'bodyAnonymousShare' | 'bodyAddressShare'
>;

/** Whom a body's bytes are counted against: a user, or an address while the caller is unknown. */
interface Holder {
  id: string;
  anonymous: boolean;
}

/**
 * Bytes of request bodies held, in all and by holder: a user may hold its share, an address whose
 * caller is unknown a small one, and unknown callers together a quarter of the whole.
 */
class BodyBudget {
  #held = 0;
  #anonymous = 0;
  readonly #byHolder = new Map<string, number>();

  constructor(private readonly limits: BudgetLimits) {}

  get held(): number {
    return this.#held;
  }

  fits(holder: Holder, bytes: number): boolean {
    const share = holder.anonymous ? this.limits.bodyAddressShare : this.limits.bodyUserShare;
    return (
      this.#held + bytes <= this.limits.bodyBudget &&
      (this.#byHolder.get(holder.id) ?? 0) + bytes <= share &&
      (!holder.anonymous || this.#anonymous + bytes <= this.limits.bodyAnonymousShare)
    );
  }

  take(holder: Holder, bytes: number): boolean {
    if (!this.fits(holder, bytes)) return false;
    this.#move(holder, bytes);
    return true;
  }

  give(holder: Holder, bytes: number): void {
    this.#move(holder, -bytes);
  }

  #move(holder: Holder, bytes: number): void {
    this.#held += bytes;
    if (holder.anonymous) this.#anonymous += bytes;
    const held = (this.#byHolder.get(holder.id) ?? 0) + bytes;
    if (held === 0) this.#byHolder.delete(holder.id);
    else this.#byHolder.set(holder.id, held);
  }
}

const userHolder = (userId: number): Holder => ({ id: `user ${userId}`, anonymous: false });

const holderOf = (request: FastifyRequest): Holder =>
  request.bodyOwner === undefined
    ? { id: `address ${request.ip}`, anonymous: true }
    : userHolder(request.bodyOwner);

/** Sets a header of the answer unless it has already left (a refusal may come after it did). */
const headerIfUnsent = (res: ServerResponse, name: string, value: string) => {
  if (!res.headersSent) res.setHeader(name, value);
};

const budgetFull = (res: ServerResponse) => {
  headerIfUnsent(res, 'retry-after', '1');
  return new BodyBudgetFull();
};

/** Takes more of the budget for a call whose body is being read; throws when it does not fit. */
const parsedCharges = new WeakMap<FastifyRequest, (bytes: number) => void>();

/**
 * Counts against the call's budget what parsing its body will add to the heap (see json-shape),
 * until its answer ends: 503 `body_budget_full` when that does not fit.
 */
export function chargeParsedBody(request: FastifyRequest, bytes: number): void {
  parsedCharges.get(request)?.(bytes);
}

/**
 * Passes the body on while counting what has arrived against the budget, until the call's answer
 * ends or its connection closes; then gives it all back and drops (uncounted) whatever still comes.
 * Over the budget or silent for `idleMs`, the call is refused and the rest of the body is read and
 * dropped, so a client still sending reads the answer. Never emits an error nobody hears: Fastify
 * stops listening once it has answered, and an unheard error would end the process.
 */
function meterBody(
  payload: Readable,
  request: FastifyRequest,
  reply: FastifyReply,
  budget: BodyBudget,
  holder: Holder,
  idleMs: number,
): Transform {
  const held = holdForRequest(request, reply.raw, budget, holder, () => clearTimeout(idle));
  const refuse = (error: DomainError) => {
    clearTimeout(idle);
    payload.unpipe(counter);
    payload.resume();
    counter.destroy(error);
  };
  const idle = setTimeout(() => {
    headerIfUnsent(reply.raw, 'connection', 'close');
    refuse(new BodyTimeout(idleMs));
  }, idleMs);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!held.open || counter.destroyed) {
        callback();
        return;
      }
      idle.refresh();
      if (!held.take(chunk.length)) {
        callback();
        refuse(budgetFull(reply.raw));
        return;
      }
      callback(null, chunk);
    },
    flush(callback) {
      clearTimeout(idle);
      callback();
    },
  });
  counter.on('error', () => undefined);
  payload.once('error', (error) => counter.destroy(error));
  return payload.pipe(counter);
}

/**
 * What a call's body holds of the budget, until its answer ends or its connection closes: then it is
 * given back, nothing more is taken (parsing a body after that counts for nothing) and `onAnswered`
 * runs (one listener on the answer, however the body was read).
 */
function holdUntilAnswered(res: ServerResponse, budget: BodyBudget, holder: Holder, onAnswered?: () => void) {
  let bytes = 0;
  const held = {
    open: true,
    /** Takes `more` when it fits; false (nothing taken) when it does not. */
    take(more: number): boolean {
      if (!held.open) return true;
      if (!budget.take(holder, more)) return false;
      bytes += more;
      return true;
    },
    /** Takes `more`, or throws 503 `body_budget_full` when it does not fit. */
    charge(more: number): void {
      if (!held.take(more)) throw budgetFull(res);
    },
  };
  res.once('close', () => {
    held.open = false;
    budget.give(holder, bytes);
    bytes = 0;
    onAnswered?.();
  });
  return held;
}

/** holdUntilAnswered for a Fastify request, whose body parser charges it by chargeParsedBody. */
function holdForRequest(
  request: FastifyRequest,
  res: ServerResponse,
  budget: BodyBudget,
  holder: Holder,
  onAnswered?: () => void,
) {
  const held = holdUntilAnswered(res, budget, holder, onAnswered);
  parsedCharges.set(request, held.charge);
  return held;
}

/** The body budget as the direct relay path (relay/front/direct.ts) takes from it. */
export interface BodyBudgetHandle {
  /** Bytes of request bodies held now. */
  readonly held: number;
  /**
   * Holds a user's body that has wholly arrived until its answer ends: a function that charges
   * more (what parsing it adds, throwing 503 when that does not fit), or undefined, nothing held,
   * when the body itself does not fit.
   */
  holdArrived(userId: number, res: ServerResponse, bytes: number): ((more: number) => void) | undefined;
}

/**
 * Refuses a declared body over the route's limit before reading it, and bounds what bodies may hold
 * in memory (REQUEST_BODY_BUDGET): all together, by user, and by address while the caller is unknown.
 * Bytes are counted as they arrive (a declared length alone takes nothing, and is refused at once
 * when it could not fit); what a call held comes back when its answer ends or its connection closes,
 * whichever way. Runs after the caller is checked (onRequest), so anonymous callers of protected
 * routes never take any of it; unknown routes are answered from the headers (see the not-found hook).
 */
export function installBodyBudget(app: FastifyInstance, limits: BodyLimits): BodyBudgetHandle {
  const budget = new BodyBudget(limits);
  app.decorateRequest('bodyOwner', undefined);
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!hasBody(request)) return undefined;
    const holder = holderOf(request);
    if (request.headers['transfer-encoding'] === undefined) {
      const declared = Number(request.headers['content-length']);
      if (!Number.isSafeInteger(declared)) return undefined; // Fastify refuses it
      // Refused here rather than by Fastify, which would close the connection on a client still
      // sending: this way it reads the answer (and what it sends is read and dropped).
      const limit = request.routeOptions.bodyLimit;
      if (declared > limit) throw bodyTooLarge(limit);
      if (!budget.fits(holder, declared)) throw budgetFull(reply.raw);
      // Wholly arrived (a small body usually comes in the packet of its headers): counted at once and
      // read as it is, without a stream in between; nothing more can come, so there is nothing to
      // count as it arrives or to time out.
      if (payload.readableLength === declared) {
        holdForRequest(request, reply.raw, budget, holder).take(declared);
        return undefined;
      }
    }
    return meterBody(payload, request, reply, budget, holder, limits.bodyIdleTimeoutMs);
  });
  return {
    get held() {
      return budget.held;
    },
    holdArrived(userId, res, bytes) {
      const holder = userHolder(userId);
      if (!budget.fits(holder, bytes)) return undefined;
      const held = holdUntilAnswered(res, budget, holder);
      held.take(bytes);
      return held.charge;
    },
  };
}
