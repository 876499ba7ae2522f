const REDACTED = '[redacted]';

/** Key parts shorter than this are not searched for (a region, a version): they are no secret alone. */
const MIN_PART_LENGTH = 6;

/** Credential-shaped text, whoever's it is: kept is what names it, the value goes. */
const CREDENTIAL_PATTERNS: Array<[RegExp, string]> = [
  // `Bearer sk-…`, `Basic dXNl…`
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]*[A-Za-z0-9_~+/-]=*/gi, `$1 ${REDACTED}`],
  // `api_key=…`, `"access_token": "…"`, `secret: …`, `key=…` in a query
  [
    /\b((?:api[_-]?|access[_-]?|secret[_-]?|private[_-]?|x-api-)?(?:key|token|secret|password|signature))(["']?\s*[:=]\s*["']?)([^\s"'&,;]{12,})/gi,
    `$1$2${REDACTED}`,
  ],
  // OpenAI-style keys (sk-…, sk-ant-…, sk-proj-…)
  [/\bsk-[A-Za-z0-9_-]{6,}/g, REDACTED],
  // AWS access key ids, Google API keys, JSON web tokens
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]+)?/g, REDACTED],
  // Long runs of letters and digits (Azure's hex keys, secrets, signatures)
  [/(?<![A-Za-z0-9])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{32,}/g, REDACTED],
];

/** The key as stored and each of its parts (Baidu `ak|sk`, iFlytek `appid|secret|key`, Zhipu `id.secret`). */
function secretsOf(key: string): string[] {
  const whole = key.trim();
  if (!whole) return [];
  const parts = whole.split(/[|.:\s]+/).filter((part) => part.length >= MIN_PART_LENGTH);
  // Longest first, so that a part inside another is not left half-replaced.
  return [...new Set([whole, ...parts])].sort((a, b) => b.length - a.length);
}

/**
 * A text that may quote a channel's key (an upstream's error message, a network error) as it may be
 * shown or logged: the key, its parts and anything credential-shaped replaced by `[redacted]`.
 */
export function redactSecrets(text: string, key = ''): string {
  let redacted = text;
  for (const secret of secretsOf(key)) redacted = redacted.split(secret).join(REDACTED);
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) redacted = redacted.replace(pattern, replacement);
  return redacted;
}

/**
 * A parsed JSON value (a provider's error body) with every string in it redacted, object keys and
 * nested values included, and any number that spells a key part replaced. Walked without recursion:
 * a hostile body may nest deeper than the stack.
 */
export function redactSecretsIn(value: unknown, key = ''): unknown {
  const clean = (leaf: unknown): unknown => {
    if (typeof leaf === 'string') return redactSecrets(leaf, key);
    if (typeof leaf === 'number' && redactSecrets(String(leaf), key) !== String(leaf)) return REDACTED;
    return leaf;
  };
  if (!value || typeof value !== 'object') return clean(value);
  const pending: Array<Record<string, unknown> | unknown[]> = [value as Record<string, unknown>];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        if (item && typeof item === 'object') pending.push(item as Record<string, unknown>);
        else node[index] = clean(item);
      });
      continue;
    }
    for (const [name, item] of Object.entries(node)) {
      const cleanName = redactSecrets(name, key);
      if (cleanName !== name) delete node[name];
      if (item && typeof item === 'object') pending.push(item as Record<string, unknown>);
      node[cleanName] = item && typeof item === 'object' ? item : clean(item);
    }
  }
  return value;
}

/**
 * A text that may be JSON (an error body, a stream event's data): as JSON, every string in it is
 * redacted once decoded, so a key written with escapes (`\u0073k-…`) is found too; any other text
 * is redacted as text. Undefined when the JSON cannot be written back (nested beyond the stack).
 */
export function redactSecretsInJsonText(text: string, key = ''): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactSecrets(text, key);
  }
  try {
    return JSON.stringify(redactSecretsIn(parsed, key));
  } catch {
    return undefined;
  }
}
