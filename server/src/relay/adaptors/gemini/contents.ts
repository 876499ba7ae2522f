import { asObject, type Json } from '../../json-value';
import { messageText } from '../openai-format';
import type { GeminiContent, GeminiPart, GeminiRole } from './wire';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** A data: URL travels inline; another URL is passed as a file reference for Google to read (never fetched here). */
export function imagePart(url: string): GeminiPart {
  const inline = DATA_URL.exec(url);
  if (inline) return { inlineData: { mimeType: inline[1]!, data: inline[2]! } };
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return { fileData: { mimeType: MIME_BY_EXTENSION[extension] ?? 'image/jpeg', fileUri: url } };
}

function contentParts(content: unknown): GeminiPart[] {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) return [];
  return content.flatMap((value): GeminiPart[] => {
    const part = asObject(value);
    if (part?.type === 'text' && typeof part.text === 'string' && part.text) return [{ text: part.text }];
    const url = asObject(part?.image_url)?.url ?? part?.image_url;
    if (part?.type === 'image_url' && typeof url === 'string') return [imagePart(url)];
    return [];
  });
}

function parsedArguments(text: unknown): Json {
  if (typeof text !== 'string' || !text.trim()) return {};
  try {
    return asObject(JSON.parse(text)) ?? {};
  } catch {
    return {};
  }
}

/** A tool answer as Gemini wants it: an object (JSON answers as they are, other text wrapped). */
function toolResponse(content: unknown): Json {
  const text = messageText(content);
  try {
    const parsed: unknown = JSON.parse(text);
    return asObject(parsed) ?? { content: parsed };
  } catch {
    return { content: text };
  }
}

/** Tool results name the function; OpenAI only gives the call id, so the names are looked up. */
function functionNamesById(messages: Json[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const value of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const toolCall = asObject(value);
      const name = asObject(toolCall?.function)?.name;
      if (typeof toolCall?.id === 'string' && typeof name === 'string') names.set(toolCall.id, name);
    }
  }
  return names;
}

function converted(message: Json, names: Map<string, string>): { role: GeminiRole; parts: GeminiPart[] } {
  if (message.role === 'tool') {
    const id = String(message.tool_call_id ?? '');
    const name = names.get(id) ?? (typeof message.name === 'string' ? message.name : id);
    return { role: 'user', parts: [{ functionResponse: { name, response: toolResponse(message.content) } }] };
  }
  if (message.role !== 'assistant') return { role: 'user', parts: contentParts(message.content) };
  const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).flatMap(
    (value): GeminiPart[] => {
      const fn = asObject(asObject(value)?.function);
      return typeof fn?.name === 'string'
        ? [{ functionCall: { name: fn.name, args: parsedArguments(fn.arguments) } }]
        : [];
    },
  );
  return { role: 'model', parts: [...contentParts(message.content), ...calls] };
}

const isSystem = (message: Json) => message.role === 'system' || message.role === 'developer';

/** gemini-1.0 (gemini-pro) takes no system instruction; 1.5 and later do. */
export function supportsSystemInstruction(model: string): boolean {
  const version = /^gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1];
  return version !== undefined && Number(version) >= 1.5;
}

/**
 * OpenAI messages → Gemini contents: assistant is `model`, tool results are user-side function
 * responses, and consecutive turns of one role merge. System messages become the system instruction
 * where the model takes one; elsewhere each becomes a user turn acknowledged by the model.
 */
export function toGeminiContents(
  openAiMessages: unknown,
  model: string,
): { contents: GeminiContent[]; systemInstruction?: GeminiContent } {
  const all = Array.isArray(openAiMessages)
    ? openAiMessages.map(asObject).filter((value): value is Json => value !== undefined)
    : [];
  const names = functionNamesById(all);
  const lift = supportsSystemInstruction(model);
  const contents: GeminiContent[] = [];
  const append = (role: GeminiRole, parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const previous = contents.at(-1);
    if (previous?.role === role) previous.parts.push(...parts);
    else contents.push({ role, parts });
  };
  const systemText: string[] = [];
  for (const message of all) {
    if (isSystem(message) && lift) {
      const text = messageText(message.content);
      if (text) systemText.push(text);
    } else if (isSystem(message)) {
      append('user', contentParts(message.content));
      append('model', [{ text: 'Okay' }]);
    } else {
      const { role, parts } = converted(message, names);
      append(role, parts);
    }
  }
  if (systemText.length === 0) return { contents };
  // A conversation made of a system prompt alone still needs a user turn.
  if (contents.length === 0)
    return { contents: [{ role: 'user', parts: [{ text: systemText.join('\n\n') }] }] };
  return { contents, systemInstruction: { parts: [{ text: systemText.join('\n\n') }] } };
}
