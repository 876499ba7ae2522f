/**
 * Text the server accepts: no C0 control characters except tab, line feed and carriage return (multi-line
 * fields keep those), no DEL, and no half of a surrogate pair standing alone (not valid UTF-8 once stored;
 * PostgreSQL refuses NUL outright). One rule for every body field and query parameter.
 */
const CONTROL = '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]';
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const FORBIDDEN = new RegExp(`${CONTROL}|${LONE_SURROGATE}`);
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'g');

export const hasForbiddenCharacter = (text: string): boolean => FORBIDDEN.test(text);

/** The text with the forbidden characters dropped (for search keywords, where a refusal helps nobody). */
export const withoutForbiddenCharacters = (text: string): string => text.replace(FORBIDDEN_ALL, '');

/** The path of the first string (value or key) in a JSON value that holds a forbidden character. */
export function forbiddenTextPath(
  value: unknown,
  path: readonly (string | number)[] = [],
): string | undefined {
  if (typeof value === 'string') return hasForbiddenCharacter(value) ? path.join('.') : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = forbiddenTextPath(item, [...path, index]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (hasForbiddenCharacter(key)) return [...path, key.replace(FORBIDDEN_ALL, '?')].join('.');
    const found = forbiddenTextPath(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
