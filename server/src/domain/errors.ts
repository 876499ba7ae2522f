import type { ErrorCode, ErrorDetail, ErrorParams } from '@switchyard/contract/render-error';
import { renderError } from '@switchyard/contract/render-error';

/**
 * A refusal a person can act on, by stable code. Routes answer it as `{success:false, message, code,
 * params}` with the message in the caller's language; `.message` is the English one (logs, tests).
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: ErrorParams = {},
    /**
     * HTTP status by nature: 200 for business refusals, 4xx for malformed input. The relay answers it;
     * /api answers every 4xx but 401/403/404/429 with 200, as one-api does (`managementStatus`).
     */
    readonly httpStatus = 200,
  ) {
    super(renderError(code, params, 'en'));
  }

  static of({ code, params }: ErrorDetail): DomainError {
    return new DomainError(code, params);
  }
}

/** Malformed input: 400 by nature (answered 200 on /api, like every refusal there). */
export class InputError extends DomainError {
  constructor(code: ErrorCode, params: ErrorParams = {}) {
    super(code, params, 400);
  }
}

/**
 * A field of a contract schema that failed its check: coded for translation, while its English message
 * stays the schema's own wording (which names the field and the rule more precisely than a template can).
 */
export class FieldInputError extends InputError {
  constructor(detail: ErrorDetail, englishMessage: string) {
    super(detail.code, detail.params);
    this.message = englishMessage;
  }
}
