import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';
import { jsonSchemaOf } from './schema';

const invalid = (message: string) => RelayError.invalid(message, 'invalid_request');

/**
 * Google's own tools run on Google's side: an OpenAI-format channel cannot run them, so a request
 * that asks for one is refused rather than answered without it.
 */
const GOOGLE_TOOLS = [
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'googleMaps',
  'computerUse',
  'fileSearch',
  'retrieval',
  'enterpriseWebSearch',
];

function declaration(value: unknown): Json {
  const fn = asObject(value);
  if (!fn || typeof fn.name !== 'string' || !fn.name)
    throw invalid('tools[].functionDeclarations[].name: Field required');
  const parameters = fn.parametersJsonSchema ?? (fn.parameters ? jsonSchemaOf(fn.parameters) : undefined);
  return {
    type: 'function',
    function: {
      name: fn.name,
      ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
      parameters: parameters ?? { type: 'object', properties: {} },
    },
  };
}

/** Gemini `tools` (functionDeclarations) as OpenAI function tools. */
export function toOpenAiTools(tools: unknown): Json[] | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) throw invalid('tools must be a list');
  const out: Json[] = [];
  for (const raw of tools as unknown[]) {
    const tool = asObject(raw) ?? {};
    const builtIn = GOOGLE_TOOLS.find((name) => tool[name] !== undefined);
    if (builtIn) {
      throw invalid(
        `tools.${builtIn} is not supported by this gateway: only functionDeclarations tools are served`,
      );
    }
    const declarations = tool.functionDeclarations;
    if (Array.isArray(declarations)) out.push(...declarations.map(declaration));
  }
  return out.length > 0 ? out : undefined;
}

/** `toolConfig.functionCallingConfig` as tool_choice, and the tools narrowed to allowedFunctionNames. */
export function toOpenAiToolChoice(
  toolConfig: unknown,
  tools: Json[] | undefined,
): { toolChoice?: unknown; tools?: Json[] } {
  const config = asObject(asObject(toolConfig)?.functionCallingConfig);
  const mode = typeof config?.mode === 'string' ? config.mode.toUpperCase() : 'AUTO';
  const allowed = Array.isArray(config?.allowedFunctionNames)
    ? config.allowedFunctionNames.filter((name): name is string => typeof name === 'string')
    : [];
  if (!tools) return {};
  if (mode === 'NONE') return { toolChoice: 'none', tools };
  if (mode !== 'ANY') return { tools };
  const narrowed =
    allowed.length > 0
      ? tools.filter((tool) => allowed.includes(String(asObject(tool.function)?.name)))
      : tools;
  if (narrowed.length === 0) throw invalid('toolConfig: allowedFunctionNames names no declared function');
  if (narrowed.length === 1) {
    const name = asObject(narrowed[0]!.function)?.name;
    return { toolChoice: { type: 'function', function: { name } }, tools };
  }
  return { toolChoice: 'required', tools: narrowed };
}
