import { asObject, type Json } from '../../json-value';
import type { AnthropicRequest } from './wire';

/** Claude 4.5 and later take a JSON schema for the answer (`output_config.format`); earlier models do not. */
function takesOutputSchema(model: string): boolean {
  const match = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(model);
  if (!match) return false;
  const major = Number(match[1]);
  return major > 4 || (major === 4 && Number(match[2] ?? 0) >= 5);
}

/** Constraints Anthropic's structured output does not enforce (it refuses a schema with them). */
const UNENFORCED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'minProperties',
  'maxProperties',
];

/** The keywords whose value is a schema, or a list of schemas. */
const SUBSCHEMAS = ['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'not'];

/**
 * A JSON schema as Anthropic's structured output takes it, as its SDKs shape one: every object
 * closed (`additionalProperties: false`, which it requires), and the constraints it cannot enforce
 * moved into the description, where the model still reads them.
 */
export function anthropicSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anthropicSchema);
  const schema = asObject(value);
  if (!schema) return value;
  const out: Json = {};
  const moved: string[] = [];
  for (const [field, inner] of Object.entries(schema)) {
    if (UNENFORCED.includes(field) || (field === 'minItems' && Number(inner) > 1)) {
      moved.push(`${field}: ${JSON.stringify(inner)}`);
    } else if (['properties', '$defs', 'definitions'].includes(field) && asObject(inner)) {
      out[field] = Object.fromEntries(
        Object.entries(inner as Json).map(([name, s]) => [name, anthropicSchema(s)]),
      );
    } else {
      out[field] = SUBSCHEMAS.includes(field) ? anthropicSchema(inner) : inner;
    }
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object') || asObject(schema.properties)) out.additionalProperties = false;
  if (moved.length > 0) {
    const description = typeof out.description === 'string' ? `${out.description} ` : '';
    out.description = `${description}(${moved.join(', ')})`;
  }
  return out;
}

const JSON_ONLY = 'Answer with one JSON value only, without any text or code fence around it.';

/**
 * `response_format` on an Anthropic request. A JSON schema goes as `output_config.format` to the
 * models that take one; to earlier models, and for `json_object` (Anthropic has no JSON mode), the
 * answer is asked for in words after the system prompt, the schema with it.
 */
export function withOutputFormat(
  responseFormat: unknown,
  system: string | undefined,
  model: string,
): Pick<AnthropicRequest, 'output_config' | 'system'> {
  const format = asObject(responseFormat);
  const schema = format?.type === 'json_schema' ? asObject(asObject(format.json_schema)?.schema) : undefined;
  if (schema && takesOutputSchema(model))
    return {
      system,
      output_config: { format: { type: 'json_schema', schema: anthropicSchema(schema) as Json } },
    };
  if (!schema && format?.type !== 'json_object') return { system };
  const instruction = schema
    ? `${JSON_ONLY} It must match this JSON schema: ${JSON.stringify(schema)}`
    : JSON_ONLY;
  return { system: system ? `${system}\n\n${instruction}` : instruction };
}
