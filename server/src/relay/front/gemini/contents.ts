import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';

const invalid = (message: string) => RelayError.invalid(message, 'invalid_request');

/** Calls of the model's turns that still wait for their response, by function name, in order. */
class PendingCalls {
  readonly #byName = new Map<string, string[]>();
  #count = 0;

  /** The OpenAI id of a call: Gemini's own `id` when it gave one, else one made up from its place. */
  open(name: string, id: unknown): string {
    const callId = typeof id === 'string' && id ? id : `call_${this.#count}_${name}`;
    this.#count += 1;
    this.#byName.set(name, [...(this.#byName.get(name) ?? []), callId]);
    return callId;
  }

  /** The id a functionResponse answers: its own, else the oldest open call of that name. */
  close(name: string, id: unknown): string {
    const queue = this.#byName.get(name) ?? [];
    if (typeof id === 'string' && id) {
      this.#byName.set(
        name,
        queue.filter((open) => open !== id),
      );
      return id;
    }
    return queue.shift() ?? `call_${name}`;
  }
}

function mediaPart(part: Json): Json | undefined {
  const inline = asObject(part.inlineData);
  if (inline) {
    if (typeof inline.data !== 'string' || !inline.data) throw invalid('inlineData.data: Field required');
    const mimeType = typeof inline.mimeType === 'string' ? inline.mimeType : 'application/octet-stream';
    return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${inline.data}` } };
  }
  const file = asObject(part.fileData);
  if (file) {
    if (typeof file.fileUri !== 'string' || !file.fileUri) throw invalid('fileData.fileUri: Field required');
    return { type: 'image_url', image_url: { url: file.fileUri } };
  }
  return undefined;
}

const contentOf = (parts: Json[]): unknown =>
  parts.length === 0
    ? null
    : parts.every((part) => part.type === 'text')
      ? parts.map((part) => String(part.text)).join('')
      : parts;

/** One Gemini `Content` (a turn) as OpenAI messages: tool results first, then the turn itself. */
function convertTurn(turn: Json, pending: PendingCalls): Json[] {
  const role = turn.role === 'model' ? 'assistant' : 'user';
  if (!Array.isArray(turn.parts)) throw invalid('contents[].parts: Field required');
  const parts: Json[] = [];
  const toolCalls: Json[] = [];
  const toolResults: Json[] = [];
  for (const raw of turn.parts as unknown[]) {
    const part = asObject(raw) ?? {};
    // Thoughts of earlier turns are the model's own notes: OpenAI-format inputs have no place for them.
    if (typeof part.text === 'string' && part.thought !== true) parts.push({ type: 'text', text: part.text });
    const media = mediaPart(part);
    if (media) parts.push(media);
    const call = asObject(part.functionCall);
    if (call) {
      const name = String(call.name ?? '');
      toolCalls.push({
        id: pending.open(name, call.id),
        type: 'function',
        function: { name, arguments: JSON.stringify(call.args ?? {}) },
      });
    }
    const response = asObject(part.functionResponse);
    if (response) {
      const name = String(response.name ?? '');
      toolResults.push({
        role: 'tool',
        tool_call_id: pending.close(name, response.id),
        content: JSON.stringify(response.response ?? {}),
      });
    }
  }
  const messages = [...toolResults];
  if (role === 'assistant' && (parts.length > 0 || toolCalls.length > 0)) {
    messages.push({
      role,
      content: contentOf(parts),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    });
  } else if (parts.length > 0) messages.push({ role, content: contentOf(parts) });
  return messages;
}

/** `systemInstruction` (a Content, or a bare string) as the text of a system message. */
function systemText(instruction: unknown): string {
  if (typeof instruction === 'string') return instruction;
  const parts = asObject(instruction)?.parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part) => asObject(part)?.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

/** Gemini `contents` and `systemInstruction` as OpenAI chat messages. */
export function toOpenAiMessages(contents: unknown, systemInstruction: unknown): Json[] {
  if (!Array.isArray(contents) || contents.length === 0)
    throw invalid('contents is not specified: it must be a non-empty list');
  const messages: Json[] = [];
  const system = systemText(systemInstruction);
  if (system) messages.push({ role: 'system', content: system });
  const pending = new PendingCalls();
  for (const turn of contents as unknown[]) {
    const content = asObject(turn);
    if (!content) throw invalid('contents[] must be Content objects');
    messages.push(...convertTurn(content, pending));
  }
  return messages;
}
