/** An error answered in OpenAI's shape: `{error:{message, type, param, code}}` with an HTTP status. */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'one_api_error',
    readonly code: string | number | null = null,
    readonly param = '',
    /** Where the error came from: our own checks, or the upstream provider. */
    readonly origin: 'gateway' | 'upstream' = 'gateway',
  ) {
    super(message);
  }

  body(requestId: string) {
    return {
      error: {
        message: requestId ? `${this.message} (request id: ${requestId})` : this.message,
        type: this.type,
        param: this.param,
        code: this.code,
      },
    };
  }
}

/**
 * Upstream failures worth trying on another channel: rate limits, server errors, network trouble,
 * and a key the provider refuses (that channel's problem, not the caller's). Other 4xx are the caller's.
 */
export function isRetryable(error: RelayError): boolean {
  if (error.origin !== 'upstream') return false;
  const { status } = error;
  return status === 0 || status === 429 || status >= 500 || status === 401 || status === 403;
}

/** The caller went away before the answer: nobody to answer, nothing to bill. */
export const clientClosed = () =>
  new RelayError(499, 'The client closed the request', 'one_api_error', 'client_closed');

/** The gateway's own database cannot be reached: nothing can be reserved or checked right now. */
export const databaseUnavailable = () =>
  new RelayError(
    503,
    'The gateway cannot reach its database right now; please try again shortly',
    'one_api_error',
    'database_unavailable',
  );
