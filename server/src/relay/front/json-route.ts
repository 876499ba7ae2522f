import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { RelayCaller } from '../pipeline/authenticate';
import { ReplySink } from './reply-sink';
import { type ErrorFormat, writeError } from './send-error';

/** A relay call whose body was read whole, its caller checked from the headers. */
export interface JsonRelayCall {
  requestId: string;
  caller: RelayCaller;
  /** The path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The `:model` of a path that names it (/v1/engines/:model/embeddings). */
  pathModel?: string;
}

/**
 * A relay route whose body is read whole (JSON): served by Fastify, and in the common case by the
 * direct path ahead of it (direct.ts), both through `serveJsonCall`.
 */
export interface JsonRelayRoute {
  path: string;
  /** The shape of its errors. */
  format: ErrorFormat;
  /** The caller's key, from the headers. */
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  serve(call: JsonRelayCall, sink: ReplySink): Promise<void>;
}

/** The caller's key as OpenAI's clients send it. */
export const bearerKey = (headers: IncomingHttpHeaders): string | undefined => headers.authorization;

/** Serves a call of the route on `res`; whatever fails is answered in the route's error shape. */
export async function serveJsonCall(
  route: JsonRelayRoute,
  call: JsonRelayCall,
  res: ServerResponse,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await route.serve(call, new ReplySink(res, call.requestId));
  } catch (error) {
    writeError(res, call.requestId, error, log, route.format);
  }
}
