import { DomainError } from './errors';

/** Every call to a sign-in provider, the bot check or a message pusher gives up after this long. */
export const OUTBOUND_TIMEOUT_MS = 5_000;

export interface OutboundAnswer {
  status: number;
  body: unknown;
}

/**
 * One JSON call to an outside service. A network failure or a timeout becomes a refusal naming the
 * service (never the URL or the credentials sent); an answer that is not JSON reads as `undefined`.
 */
export async function requestJson(
  service: string,
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
    throw new DomainError(
      timedOut
        ? `${service} did not answer within ${timeoutMs / 1000} seconds; please try again later`
        : `Could not reach ${service}; please try again later`,
    );
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}
