/**
 * A client's JSON body with some top-level fields replaced and every other byte kept: the native
 * pass-through sends the client's own bytes, only the model mapped (and max tokens lowered). A field
 * the body lacks is added before its closing brace.
 */
export function withTopLevelFields(raw: Buffer, fields: Record<string, unknown>): Buffer {
  const text = raw.toString('utf8');
  const members = topLevelSpans(text);
  if (!members) {
    // Not a plain object: re-serialised (the pipeline has parsed it already).
    const body = JSON.parse(text) as Record<string, unknown>;
    return Buffer.from(JSON.stringify({ ...body, ...fields }));
  }
  const { spans, close } = members;
  const names = Object.keys(fields);
  const added = names
    .filter((name) => !spans.has(name))
    .map((name) => `${JSON.stringify(name)}:${JSON.stringify(fields[name])}`);
  const edits = names
    .filter((name) => spans.has(name))
    .map((name) => ({ span: spans.get(name) as [number, number], value: JSON.stringify(fields[name]) }))
    .sort((a, b) => b.span[0] - a.span[0]);
  let out = text;
  if (added.length > 0) {
    const joined = (spans.size > 0 ? ',' : '') + added.join(',');
    out = out.slice(0, close) + joined + out.slice(close);
  }
  for (const { span, value } of edits) out = out.slice(0, span[0]) + value + out.slice(span[1]);
  return Buffer.from(out);
}

/**
 * The body with one nested field (`generationConfig.maxOutputTokens`) set, every other byte kept;
 * re-serialised when a member on the path is missing.
 */
export function withFieldAt(raw: Buffer, path: readonly [string, ...string[]], value: unknown): Buffer {
  const text = raw.toString('utf8');
  let span: [number, number] | undefined = [0, text.length];
  for (const name of path) span = span && memberSpans(text, span[0])?.spans.get(name);
  if (span) return Buffer.from(text.slice(0, span[0]) + JSON.stringify(value) + text.slice(span[1]));
  const body = JSON.parse(text) as Record<string, unknown>;
  let object = body;
  for (const name of path.slice(0, -1)) {
    const inner = object[name];
    object[name] = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : {};
    object = object[name] as Record<string, unknown>;
  }
  object[path[path.length - 1] as string] = value;
  return Buffer.from(JSON.stringify(body));
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

const topLevelSpans = (text: string) => memberSpans(text, 0);

/**
 * Where each member's value of the object at `from` starts and ends, and where its closing brace is;
 * undefined when there is no object there.
 */
function memberSpans(
  text: string,
  from: number,
): { spans: Map<string, [number, number]>; close: number } | undefined {
  const spans = new Map<string, [number, number]>();
  let at = skipSpace(text, from);
  if (text[at] !== '{') return undefined;
  at = skipSpace(text, at + 1);
  if (text[at] === '}') return { spans, close: at };
  for (;;) {
    if (text[at] !== '"') return undefined;
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text[at] !== ':') return undefined;
    const start = skipSpace(text, at + 1);
    const end = valueEnd(text, start);
    if (end <= start) return undefined;
    spans.set(key, [start, end]);
    at = skipSpace(text, end);
    if (text[at] === '}') return { spans, close: at };
    if (text[at] !== ',') return undefined;
    at = skipSpace(text, at + 1);
  }
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && WHITESPACE.has(text[at] as string)) at += 1;
  return at;
}

/** The index after the string that opens at `from` (a `"`). */
function stringEnd(text: string, from: number): number {
  let at = from + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** The index after the JSON value that starts at `from`. */
function valueEnd(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return stringEnd(text, from);
  if (first !== '{' && first !== '[') {
    let at = from;
    while (at < text.length && !',}]'.includes(text[at] as string) && !WHITESPACE.has(text[at] as string))
      at += 1;
    return at;
  }
  let depth = 0;
  let at = from;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') {
      at = stringEnd(text, at);
      continue;
    }
    if (char === '{' || char === '[') depth += 1;
    if (char === '}' || char === ']') depth -= 1;
    at += 1;
    if (depth === 0) return at;
  }
  return at;
}
