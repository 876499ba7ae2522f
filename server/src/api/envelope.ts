import type { Envelope } from '@switchyard/contract/envelope';
import { wholeNumberText } from '@switchyard/contract/envelope';
import { fieldRefusal } from '@switchyard/contract/issue-rules';
import { withoutNullFields } from '@switchyard/contract/json-null';
import {
  forbiddenTextPath,
  hasForbiddenCharacter,
  withoutForbiddenCharacters,
} from '@switchyard/contract/plain-text';
import { type ErrorLanguage, preferredLanguage, renderError } from '@switchyard/contract/render-error';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type DomainError, FieldInputError, InputError } from '../domain/errors';

export const ok = <T>(data?: T): Envelope<T> =>
  data === undefined ? { success: true, message: '' } : { success: true, message: '', data };

/** The language a caller reads refusals in, from its `Accept-Language`. */
export const languageOf = (request: FastifyRequest): ErrorLanguage =>
  preferredLanguage(request.headers['accept-language']);

/** A refusal as the envelope: its code and params, and its message in the caller's language. */
export function refusal(error: DomainError, language: ErrorLanguage): Envelope<never> {
  const message = language === 'en' ? error.message : renderError(error.code, error.params, language);
  const params = Object.keys(error.params).length > 0 ? { params: error.params } : {};
  return { success: false, message, code: error.code, ...params };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a JSON body against a contract schema; the first problem becomes the message. A `null` field
 * reads as absent, as one-api's consoles mean it (contract/src/json-null.ts).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (!isPlainObject(body)) throw new InputError('body_not_object');
  const badField = forbiddenTextPath(body);
  if (badField !== undefined) throw new InputError('text_forbidden_character', { field: badField });
  const result = schema.safeParse(withoutNullFields(body));
  if (result.success) return result.data;
  throw schemaRefusal(result.error);
}

/** The first issue of a failed contract check, as the refusal to answer. */
export function schemaRefusal(error: z.ZodError): FieldInputError {
  const issue = error.issues[0];
  if (!issue) return new FieldInputError({ code: 'field_invalid', params: { field: '' } }, 'Invalid input');
  const field = issue.path.join('.');
  // Zod's own messages ("Invalid input: expected string…") do not say which field; ours do.
  const unnamed = issue.message.startsWith('Invalid') && issue.code !== 'custom';
  return new FieldInputError(
    fieldRefusal(issue),
    unnamed && field ? `${field}: ${issue.message}` : issue.message,
  );
}

/** A 0-based page index; anything else reads as the first page. */
export function parsePage(value: unknown): number {
  const page = typeof value === 'string' ? Number.parseInt(value, 10) : 0;
  return Number.isInteger(page) && page > 0 && page < 1_000_000 ? page : 0;
}

export function parseId(value: unknown): number {
  const text = typeof value === 'string' ? value : '';
  const id = wholeNumberText(text);
  if (!id) throw new InputError('invalid_id', { value: text });
  return id;
}

/** A query parameter's text ('' when absent); control characters and broken Unicode are refused. */
export function queryText(query: unknown, name: string): string {
  const value = isPlainObject(query) ? query[name] : undefined;
  const text = typeof value === 'string' ? value : '';
  if (hasForbiddenCharacter(text)) throw new InputError('text_forbidden_character', { field: name });
  return text;
}

/** The `keyword` of a search, with control characters and broken Unicode dropped rather than refused. */
export function searchKeyword(query: unknown): string {
  const value = isPlainObject(query) ? query.keyword : undefined;
  return typeof value === 'string' ? withoutForbiddenCharacters(value) : '';
}
