/**
 * one-api (Go) decodes a JSON `null` as the field's zero value, and its consoles and scripts send
 * `null` for fields they have no value for (`aff_code` when there is no `?aff=`). Every management body
 * goes through this before its schema: a property whose value is `null`, at any depth, reads as absent,
 * so the schema's default (one-api's zero value where it stores one) or "unchanged" applies. Items of
 * arrays are kept as they are: a `null` in a list is a value, not a missing field.
 */
export function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines each key as an own property, `__proto__` included (no prototype change).
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null)
      .map(([key, item]) => [key, withoutNullFields(item)]),
  );
}
