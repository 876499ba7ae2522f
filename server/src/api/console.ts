import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import { addRouteHook } from './route-hooks';
import { setConsoleHeaders } from './security-headers';

/** Where the built console lives: WEB_DIST, else web/dist beside the server package. */
export function resolveConsoleDir(configured: string | undefined): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = configured
    ? [path.resolve(configured)]
    : [
        path.resolve(here, '../../../web/dist'),
        path.resolve(here, '../../web/dist'),
        path.resolve('web/dist'),
      ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')));
}

/**
 * The APIs' paths, ours and one-api's: the management API, the relay and its versioned siblings
 * (/v1, /v1beta, /v2…), the billing dashboard, one-api's proxy and Midjourney prefixes, metrics and
 * health checks. An unknown one is a JSON 404 of its API, never the console, built or not.
 */
const API_PATH =
  /^\/+(?:api|v\d+(?:alpha|beta)?\d*|dashboard|oneapi|mj|metrics|healthz?|readyz?|livez?|ping)(?:[/?]|$)/i;

const isApiShaped = (pathname: string): boolean => API_PATH.test(pathname);

/**
 * Whether a request that matched no route is a browser asking for a console page (a deep link such
 * as /token/edit/3): GET or HEAD, a path that is neither an API's nor a file's, and an Accept that
 * names text/html. A Prometheus scrape or an API client never gets the console's HTML with a 200.
 */
export function isConsolePage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  if (isApiShaped(pathname) || path.extname(pathname) !== '') return false;
  return (request.headers.accept ?? '').toLowerCase().includes('text/html');
}

/**
 * Whether a console file is a page load (index.html): what GLOBAL_WEB_RATE_LIMIT counts. A first visit
 * fetches some 25 scripts, styles and images; counting those would refuse a few fresh browsers behind
 * one office address.
 */
const isPageLoad = (route: RouteOptions): boolean => route.url.endsWith('/') || route.url.endsWith('.html');

/**
 * Serves the built console: hashed assets cached for a year, everything else revalidated. The
 * files' routes live in a scope of their own so that `limit` (GLOBAL_WEB_RATE_LIMIT) reaches its page
 * loads and no other route; reply.sendFile, for the index.html fallback, is for the whole app.
 */
export async function registerConsole(
  app: FastifyInstance,
  dir: string | undefined,
  limit: onRequestHookHandler | undefined,
): Promise<void> {
  if (!dir) return;
  const options = {
    root: dir,
    // Our own cache rule, not send's default `max-age=0`.
    cacheControl: false,
    setHeaders: (reply: FastifyReply, filePath: string) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      setConsoleHeaders(reply);
    },
  };
  await app.register(fastifyStatic, { ...options, serve: false });
  await app.register(async (files) => {
    if (limit) addRouteHook(files, 'onRequest', isPageLoad, limit);
    await files.register(fastifyStatic, {
      ...options,
      wildcard: false,
      index: 'index.html',
      decorateReply: false,
    });
  });
}
