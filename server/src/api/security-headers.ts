import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The console's Content-Security-Policy, fitted to the built app: its own scripts only (no inline
 * script; Cloudflare Turnstile's loader), inline styles (Mantine's style tags and style props).
 * Administrators' content may show images and frames from anywhere (logo, QR code, About, home page,
 * chat link), and root's update check asks a releases address of their choice.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' https://challenges.cloudflare.com",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self' https: http:",
  "frame-src 'self' https: http:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every console file: index.html and its assets. */
export function setConsoleHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  // The full address stays on this site; others (OAuth providers, linked pages) see the origin only.
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
}

/** Every /api answer: never sniffed into something else, never kept by a cache (they carry accounts and keys). */
export async function apiHeaders(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', 'no-store');
}
