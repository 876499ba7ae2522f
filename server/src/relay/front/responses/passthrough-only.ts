import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';
import { responsesToChat } from './request';
import { type ClientTools, isTranslatableTool, translateTools } from './tools';

/** Refusals of features chat has no translation for, which OpenAI and Azure channels serve as sent. */
const PASSTHROUGH_ONLY = new Set([
  'unsupported_tool_type',
  'unsupported_tool_choice',
  'unsupported_input_item',
  'unsupported_content_type',
]);

const TRANSLATED_ITEMS = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'reasoning',
  'item_reference',
]);
const TRANSLATED_PARTS = new Set(['input_text', 'output_text', 'refusal', 'input_image']);

/** A message item without the content parts chat cannot carry (input files, audio…). */
function withTranslatedParts(item: Json): Json {
  if (!Array.isArray(item.content)) return item;
  const content = item.content.filter((part) => TRANSLATED_PARTS.has(String(asObject(part)?.type)));
  return { ...item, content };
}

/**
 * The request without what only a pass-through can serve (hosted tools and their tool choices,
 * input items and parts chat has no form for): what the pipeline routes, counts and reserves on.
 */
function translatableCopy(body: Json): Json {
  const copy: Json = { ...body };
  if (Array.isArray(body.tools)) copy.tools = body.tools.filter(isTranslatableTool);
  const choice = asObject(body.tool_choice);
  if (choice && !['function', 'custom', 'allowed_tools'].includes(String(choice.type)))
    delete copy.tool_choice;
  if (Array.isArray(body.input)) {
    copy.input = body.input
      .map((entry) => asObject(entry))
      .filter((item): item is Json => item !== undefined)
      .filter((item) => TRANSLATED_ITEMS.has(String(item.type ?? (item.role !== undefined ? 'message' : ''))))
      .map(withTranslatedParts);
  }
  return copy;
}

/**
 * The chat translation of a Responses request, with the client's tools by their chat names (to
 * answer each call in its kind). A request with features chat cannot carry is translated without
 * them, for the pipeline's stages, and keeps its refusal: an OpenAI or Azure channel passes it
 * through whole, any other channel answers the refusal (pipeline/native.ts).
 */
export function chatForPipeline(body: Json): { chat: Json; tools: ClientTools; untranslatable?: RelayError } {
  try {
    return { chat: responsesToChat(body), tools: translateTools(body).origins };
  } catch (error) {
    if (!(error instanceof RelayError) || !PASSTHROUGH_ONLY.has(String(error.code))) throw error;
    const copy = translatableCopy(body);
    return { chat: responsesToChat(copy), tools: translateTools(copy).origins, untranslatable: error };
  }
}
