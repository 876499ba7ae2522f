import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/**
 * node:http, taken with `require`. An ESM import of it reads every export, Node 24's lazy `WebSocket`,
 * `CloseEvent` and `MessageEvent` among them, and so loads Node's own copy of undici (0.9 MB of the
 * server's heap after start, 2–4 MiB of RSS; the relay uses undici from npm and never Node's).
 */
export const http = createRequire(import.meta.url)('node:http') as typeof Http;
