import type { Envelope } from '@switchyard/contract/envelope';
import { wholeNumberText } from '@switchyard/contract/envelope';
import type { z } from 'zod';
import { InputError } from '../domain/errors';

export const ok = <T>(data?: T): Envelope<T> =>
  data === undefined ? { success: true, message: '' } : { success: true, message: '', data };

export const refusal = (message: string): Envelope<never> => ({ success: false, message });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a JSON body against a contract schema; the first problem becomes the message. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (!isPlainObject(body)) throw new InputError('The request body must be a JSON object');
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'Invalid input';
  // Zod's own messages ("Invalid input: expected string…") do not say which field; ours do.
  const unnamed = message.startsWith('Invalid') && issue?.code !== 'custom';
  throw new InputError(unnamed && field ? `${field}: ${message}` : message);
}

/** A 0-based page index; anything else reads as the first page. */
export function parsePage(value: unknown): number {
  const page = typeof value === 'string' ? Number.parseInt(value, 10) : 0;
  return Number.isInteger(page) && page > 0 && page < 1_000_000 ? page : 0;
}

export function parseId(value: unknown, what = 'id'): number {
  const text = typeof value === 'string' ? value : '';
  const id = wholeNumberText(text);
  if (!id) throw new InputError(`Invalid ${what}: "${text}"`);
  return id;
}

export function queryText(query: unknown, name: string): string {
  const value = isPlainObject(query) ? query[name] : undefined;
  return typeof value === 'string' ? value : '';
}
