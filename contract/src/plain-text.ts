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

/** A place in a JSON value: its parent's place and its key or index there. */
interface Place {
  parent: Place | undefined;
  segment: string | number;
}

const pathOf = (place: Place | undefined): string => {
  const segments: Array<string | number> = [];
  for (let at = place; at; at = at.parent) segments.push(at.segment);
  return segments.reverse().join('.');
};

/**
 * The path of the first string (value or key) in a JSON value that holds a forbidden character. The
 * walk keeps its own stack, so a value nested however deep cannot exhaust the call stack.
 */
export function forbiddenTextPath(value: unknown): string | undefined {
  // Depth-first, in document order: what is pushed last is looked at first. A key that holds a
  // forbidden character is an answer in its turn (`badKey`), after the values before it.
  const pending: Array<{ value: unknown; place: Place | undefined; badKey?: true }> = [
    { value, place: undefined },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, place } = next;
    if (next.badKey) return pathOf(place);
    if (typeof item === 'string') {
      if (hasForbiddenCharacter(item)) return pathOf(place);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--)
        pending.push({ value: item[index], place: { parent: place, segment: index } });
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index] as [string, unknown];
        if (hasForbiddenCharacter(key))
          pending.push({
            value: undefined,
            place: { parent: place, segment: key.replace(FORBIDDEN_ALL, '?') },
            badKey: true,
          });
        else pending.push({ value: child, place: { parent: place, segment: key } });
      }
    }
  }
  return undefined;
}
