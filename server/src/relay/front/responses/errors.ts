import { RelayError } from '../../errors';

/** The `code` of every refusal that needs a stored response: this gateway keeps none. */
export const NOT_STORED_CODE = 'responses_not_stored';

const NOT_STORED = 'not supported: this gateway is stateless and does not store responses';

/** A bad Responses request: 400 in OpenAI's shape, naming the parameter at fault. */
export const invalidResponsesRequest = (message: string, param: string, code = 'invalid_request') =>
  RelayError.invalid(message, code, { param });

/** A request field that needs a stored response or conversation (`previous_response_id`, …). */
export const needsStoredState = (param: string, what = param) =>
  RelayError.invalid(`${what} is ${NOT_STORED}`, NOT_STORED_CODE, { param });

/** GET/DELETE/cancel/input_items of a response id: nothing is kept, so there is nothing to find. */
export const responseNotStored = (id: string) =>
  RelayError.invalid(`Response '${id}' cannot be found: ${NOT_STORED}`, NOT_STORED_CODE, {
    status: 404,
  });
