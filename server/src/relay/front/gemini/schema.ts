import { asObject, type Json } from '../../json-value';

const NESTED = ['properties', '$defs', 'definitions', 'patternProperties'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * A Gemini `Schema` (OpenAPI 3 subset: `type: "OBJECT"`, `nullable`) as JSON Schema, what OpenAI's
 * tools and response_format take. Fields JSON Schema knows pass unchanged; a JSON Schema stays one.
 */
export function jsonSchemaOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonSchemaOf);
  const schema = asObject(value);
  if (!schema) return value;
  const out: Json = {};
  for (const [field, inner] of Object.entries(schema)) {
    if (field === 'nullable' || field === 'propertyOrdering') continue;
    if (field === 'type' && typeof inner === 'string') out.type = inner.toLowerCase();
    else if (field === 'items' || field === 'additionalProperties' || field === 'not')
      out[field] = jsonSchemaOf(inner);
    else if (NESTED.includes(field) && asObject(inner))
      out[field] = Object.fromEntries(Object.entries(inner as Json).map(([k, v]) => [k, jsonSchemaOf(v)]));
    else if (LISTS.includes(field) && Array.isArray(inner)) out[field] = inner.map(jsonSchemaOf);
    else out[field] = inner;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}
