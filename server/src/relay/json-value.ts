/** A parsed JSON object, read field by field without trusting its shape. */
export type Json = Record<string, unknown>;

/** The value when it is a JSON object (not null, not an array). */
export const asObject = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

/** The value when it is a finite number. */
export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
