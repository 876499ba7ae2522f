/** A refusal a person can act on. Routes answer it as `{success:false, message}`. */
export class DomainError extends Error {
  constructor(
    message: string,
    /** HTTP status: 200 for business refusals (as one-api), 4xx for malformed input. */
    readonly httpStatus = 200,
  ) {
    super(message);
  }
}

/** Malformed input: answered with HTTP 400. */
export class InputError extends DomainError {
  constructor(message: string) {
    super(message, 400);
  }
}
