import http from 'node:http';

export interface FreshAnswer<T = unknown> {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  body: T;
}

/**
 * One request on a connection of its own (no keep-alive agent), closed after the answer. Behind
 * Node's cluster each new connection goes to the next worker in turn, so consecutive calls made this
 * way reach every worker, as separate clients do.
 */
export function freshRequest<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<FreshAnswer<T>> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, baseUrl),
      {
        method,
        agent: false,
        headers: {
          // As the console does: its header marks each call as this site's.
          'x-requested-with': 'switchyard-console',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the caller reads `text`
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parsed as T });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
