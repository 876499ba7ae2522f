import { type ErrorDetail, renderError } from '@switchyard/contract/render-error';
import { isDatabaseUnreachable } from '../db/connect';
import { redactSecrets, redactSecretsIn, redactSecretsInJsonText } from '../domain/redact-secrets';

type ErrorCode = string | number | null;

/**
 * An error answered in OpenAI's shape: `{error:{message, type, param, code}}` with an HTTP status.
 * Made by name: what the client got wrong, what the gateway refuses, what the provider answered. The
 * gateway's own errors always carry a stable `code`; the provider's pass on whatever code it sent.
 */
export class RelayError extends Error {
  private constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: ErrorCode,
    readonly param: string,
    /** Where the error came from: our own checks, or the upstream provider. */
    readonly origin: 'gateway' | 'upstream',
    /** What administrators (a channel test) and the server log see; clients see only `message`. */
    readonly detail = message,
    /** The provider's own error body, for a client that speaks the provider's format (pass-through). */
    readonly asSent?: { format: string; body: string },
  ) {
    super(message);
  }

  /** The same error, carrying the body the provider sent, in `format`, for clients of that format. */
  withBodyAsSent(format: string, body: string): RelayError {
    const { status, message, type, code, param, origin, detail } = this;
    return new RelayError(status, message, type, code, param, origin, detail, { format, body });
  }

  /** A request the client got wrong: `invalid_request_error`, 400 unless said otherwise. */
  static invalid(
    message: string,
    code: string,
    { status = 400, param = '' }: { status?: number; param?: string } = {},
  ): RelayError {
    return new RelayError(status, message, 'invalid_request_error', code, param, 'gateway');
  }

  /** A refusal of the gateway's own (a key, a channel, a limit), `one_api_error` unless said otherwise. */
  static gateway(status: number, message: string, code: ErrorCode, type = 'one_api_error'): RelayError {
    return new RelayError(status, message, type, code, '', 'gateway');
  }

  /** The account or the key cannot pay (403). */
  static quota(message: string, code: string): RelayError {
    return RelayError.gateway(403, message, code);
  }

  /** Our own bug: nothing the caller can do. */
  static internal(): RelayError {
    return new RelayError(
      500,
      'Internal error in the gateway',
      'one_api_panic',
      'internal_error',
      '',
      'gateway',
    );
  }

  /** What the provider answered, or failing to reach it: worth another channel when `isRetryable` says so. */
  static upstream(
    status: number,
    message: string,
    {
      type = 'upstream_error',
      code = null,
      param = '',
      detail = message,
    }: { type?: string; code?: ErrorCode; param?: string; detail?: string } = {},
  ): RelayError {
    return new RelayError(status, message, type, code, param, 'upstream', detail);
  }

  /**
   * The same error with the channel's key, its parts and anything credential-shaped taken out of
   * every field a client or an administrator may see: message, type, param, code, detail and the
   * provider's own body (each string in it, decoded). A body that cannot be cleaned is not passed on.
   */
  withoutSecrets(key: string): RelayError {
    const body = this.asSent && redactSecretsInJsonText(this.asSent.body, key);
    return new RelayError(
      this.status,
      redactSecrets(this.message, key),
      redactSecrets(this.type, key),
      redactSecretsIn(this.code, key) as ErrorCode,
      redactSecrets(this.param, key),
      this.origin,
      redactSecrets(this.detail, key),
      this.asSent && body !== undefined ? { format: this.asSent.format, body } : undefined,
    );
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
export const clientClosed = () => RelayError.gateway(499, 'The client closed the request', 'client_closed');

/** The gateway's own database cannot be reached: nothing can be reserved or checked right now (as on /api). */
export const databaseUnavailable = () =>
  RelayError.gateway(503, renderError('database_unavailable', {}, 'en'), 'database_unavailable');

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** How the details of a failure to reach the upstream, or of an answer that broke off, begin. */
const REASON_INTRO = {
  upstream_unreachable: 'Could not reach the upstream: ',
  upstream_broken: 'The upstream answer broke off: ',
} as const;

/** What an administrator reads of a failure: why it failed, as a refusal code and its data. */
export function failureDetail(error: RelayError): ErrorDetail {
  for (const [code, intro, detailCode] of [
    ['upstream_unreachable', REASON_INTRO.upstream_unreachable, 'channel_test_unreachable'],
    ['upstream_broken', REASON_INTRO.upstream_broken, 'channel_test_broken'],
  ] as const) {
    if (error.code === code && error.detail.startsWith(intro)) {
      return { code: detailCode, params: { reason: error.detail.slice(intro.length) } };
    }
  }
  return { code: 'channel_test_upstream_error', params: { detail: error.detail } };
}

/**
 * The provider could not be reached (connection refused, DNS, TLS, a socket that would not open).
 * Which address failed and how is for administrators and the log, not for relay clients.
 */
export const upstreamUnreachable = (error: unknown) =>
  RelayError.upstream(502, 'The upstream channel could not be reached', {
    code: 'upstream_unreachable',
    detail: `${REASON_INTRO.upstream_unreachable}${reasonOf(error)}`,
  });

/** The provider's answer broke off half-way (a reset, a silence): the socket's story is the log's. */
export const upstreamBroke = (error: unknown) =>
  RelayError.upstream(502, 'The upstream answer broke off', {
    code: 'upstream_broken',
    detail: `${REASON_INTRO.upstream_broken}${reasonOf(error)}`,
  });

/** The provider's stream closed cleanly before its end event: as broken as a cut one. */
export const endedBeforeItsEnd = () => upstreamBroke(new Error('the stream closed before its end event'));

/**
 * The provider answered 200 with something that is not an answer of its format (not JSON, or JSON
 * without the fields its answers have): nothing to bill, worth another channel. The body is not
 * quoted back: it may be anything.
 */
export const badUpstreamAnswer = (what: string) =>
  RelayError.upstream(502, `The upstream answered something that is not a valid answer: ${what}`, {
    code: 'bad_upstream_answer',
  });

/** An answer read whole grew beyond RELAY_ANSWER_LIMIT (`limit` bytes): it is not read further. */
export const upstreamAnswerTooLarge = (limit: number) =>
  RelayError.upstream(502, 'The upstream answer is too large to relay', {
    code: 'upstream_answer_too_large',
    detail: `The upstream answer grew beyond RELAY_ANSWER_LIMIT (${Math.round(limit / 1024)} KB)`,
  });

/** An answer that had begun went silent for longer than RELAY_TIMEOUT, or was not whole by the call's end. */
export const upstreamWentSilent = () =>
  RelayError.upstream(504, 'The upstream answer stopped arriving before it was whole', {
    code: 'upstream_timeout',
  });

/**
 * What a client is told of any failure: a RelayError as it is, the database being away as 503, and
 * anything else (our own bug; the caller logs it) as a 500 that reveals nothing.
 */
export function asRelayError(error: unknown): RelayError {
  if (error instanceof RelayError) return error;
  return isDatabaseUnreachable(error) ? databaseUnavailable() : RelayError.internal();
}
