import type { FastifyRequest } from 'fastify';

const MB = 1024 * 1024;

/** What an /api route reads unless it needs more: forms of a few short fields. */
export const API_BODY_LIMIT = 1 * MB;

/** An option value: at most 1,000,000 characters, each at most 3 bytes of UTF-8 (home page, about). */
export const OPTION_BODY_LIMIT = 4 * MB;

/** Fastify reads no body for these, whatever the headers say. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/** The request carries a body Fastify would read. */
export const hasBody = (request: FastifyRequest): boolean =>
  !BODYLESS.has(request.method) &&
  (request.headers['transfer-encoding'] !== undefined ||
    (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0'));
