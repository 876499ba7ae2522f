import { DomainError } from './errors';

/** Every call to a sign-in provider, the bot check or a message pusher gives up after this long. */
export const OUTBOUND_TIMEOUT_MS = 5_000;

/**
 * The most of an outside service's answer that is read (its JSON is small: a token, a balance, a
 * verdict); a longer one is read no further and taken as no JSON.
 */
export const OUTBOUND_ANSWER_LIMIT_BYTES = 1024 * 1024;

/** The outside services the server calls, each with its own wording of a timeout and a failed connection. */
export type OutboundService = 'github' | 'lark' | 'oidc' | 'wechat' | 'pusher' | 'turnstile' | 'balance';

export interface OutboundAnswer {
  status: number;
  body: unknown;
}

/**
 * One JSON call to an outside service. A network failure or a timeout becomes a refusal naming the
 * service (never the URL or the credentials sent); an answer that is not JSON reads as `undefined`.
 */
export async function requestJson(
  service: OutboundService,
  url: string,
  { timeoutMs = OUTBOUND_TIMEOUT_MS, ...init }: RequestInit & { timeoutMs?: number } = {},
): Promise<OutboundAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...init.headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw timedOut
      ? new DomainError(`${service}_timeout`, { seconds: timeoutMs / 1000 })
      : new DomainError(`${service}_unreachable`);
  }
  const text = await textAtMost(response, OUTBOUND_ANSWER_LIMIT_BYTES).catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

/** The answer's text, or '' when it is longer than `limit` bytes (the rest is not read). */
export async function textAtMost(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    // Leaving the loop cancels the body: the rest is not downloaded.
    if (size > limit) return '';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
