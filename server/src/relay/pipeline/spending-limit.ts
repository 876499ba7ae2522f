import { type Billing, type Price, quotaFor, type Reservation } from '../../domain/billing';
import { countPromptTokens, type RelayRequest } from './relay-request';
import type { TokenCounter } from './tokenizer';

/**
 * Calls of an account that cannot pay their worst case (`Reservation.limit` is set): the request
 * asks the provider for no more completion tokens than the account can pay, and a stream is watched
 * as it runs. Rich accounts never come here.
 */

/** Completion tokens the account can pay after the prompt; Infinity for a free model. */
export function completionBudget(
  request: RelayRequest,
  price: Price,
  limit: number,
  counter: TokenCounter,
): { budget: number; promptTokens: number } {
  const promptTokens = countPromptTokens(request, counter);
  if (price.ratio <= 0) return { budget: Number.POSITIVE_INFINITY, promptTokens };
  // The whole prompt might be written to the provider's cache, at its cache-write price.
  const promptCost = promptTokens * Math.max(1, price.cacheWriteRatio);
  const budget = Math.floor((limit / price.ratio - promptCost) / Math.max(price.completionRatio, 1e-9));
  return { budget, promptTokens };
}

/** Lowers the request's max_tokens (or max_completion_tokens) to `budget` when it asks for more or none. */
export function limitCompletion(request: RelayRequest, budget: number): void {
  const { body } = request;
  if (!body || (request.mode !== 'chat' && request.mode !== 'completions')) return;
  if (!Number.isFinite(budget) || (request.maxTokens > 0 && request.maxTokens <= budget)) return;
  const field =
    body.max_completion_tokens !== undefined && body.max_tokens === undefined
      ? 'max_completion_tokens'
      : 'max_tokens';
  body[field] = budget;
  request.maxTokens = budget;
  request.rawBody = Buffer.from(JSON.stringify(body));
}

/**
 * Follows a stream's running cost from the text it delivered. When the cost passes what is held, it
 * holds more; when the account cannot give more, `afford` answers false and the stream is ended.
 */
export class StreamSpendWatch {
  #seenChars = 0;
  #completionTokens = 0;

  constructor(
    private readonly deps: {
      billing: Billing;
      reservation: Reservation;
      price: Price;
      promptTokens: number;
      model: string;
      counter: TokenCounter;
      /** Held at once when more is needed, so that a long stream does not ask at every chunk. */
      step: number;
    },
  ) {}

  async afford(text: string): Promise<boolean> {
    const { billing, reservation, price, promptTokens, counter, model, step } = this.deps;
    if (text.length === this.#seenChars) return true;
    this.#completionTokens += counter.text(text.slice(this.#seenChars), model);
    this.#seenChars = text.length;
    const cost = quotaFor(price, { prompt_tokens: promptTokens, completion_tokens: this.#completionTokens });
    const missing = cost - reservation.amount;
    if (missing <= 0) return true;
    if (await billing.extend(reservation, Math.max(missing, step))) return true;
    return billing.extend(reservation, missing);
  }
}
