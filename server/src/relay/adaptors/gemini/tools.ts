import { asObject, type Json } from '../../json-value';
import type { GeminiFunctionDeclaration, GeminiToolConfig } from './wire';

/**
 * The fields of Gemini's `Schema` (an OpenAPI subset). It refuses a request with any other
 * (`additionalProperties`, `$schema`, or a client's own such as Codex's `encrypted`).
 */
const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** A JSON schema as Gemini accepts it: only the fields of its `Schema`, at every depth. */
export function geminiSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(geminiSchema);
  const object = asObject(value);
  if (!object) return value;
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => SCHEMA_FIELDS.has(key))
      .map(([key, field]) => [key, key === 'properties' ? propertiesSchema(field) : geminiSchema(field)]),
  );
}

/** Under `properties` the keys are property names, not keywords: only their schemas are cleaned. */
const propertiesSchema = (value: unknown) => {
  const object = asObject(value);
  if (!object) return value;
  return Object.fromEntries(Object.entries(object).map(([name, schema]) => [name, geminiSchema(schema)]));
};

/** Gemini refuses an object schema without properties; a function without parameters simply has none. */
function parametersOf(value: unknown): Json | undefined {
  const schema = asObject(geminiSchema(value));
  if (!schema) return undefined;
  const properties = asObject(schema.properties);
  if (schema.type === 'object' && (!properties || Object.keys(properties).length === 0)) return undefined;
  return schema;
}

/** OpenAI `tools` (function tools) → one Gemini tool holding the function declarations. */
export function toGeminiTools(
  tools: unknown,
): Array<{ functionDeclarations: GeminiFunctionDeclaration[] }> | undefined {
  if (!Array.isArray(tools)) return undefined;
  const declarations = tools.flatMap((value): GeminiFunctionDeclaration[] => {
    const fn = asObject(asObject(value)?.function);
    if (typeof fn?.name !== 'string') return [];
    const parameters = parametersOf(fn.parameters);
    return [
      {
        name: fn.name,
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        ...(parameters ? { parameters } : {}),
      },
    ];
  });
  return declarations.length > 0 ? [{ functionDeclarations: declarations }] : undefined;
}

/** OpenAI `tool_choice` → Gemini's calling mode: auto → AUTO, none → NONE, required → ANY, a name → ANY of it. */
export function toGeminiToolConfig(choice: unknown): GeminiToolConfig | undefined {
  const name = asObject(asObject(choice)?.function)?.name;
  if (typeof name === 'string')
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  return undefined;
}
