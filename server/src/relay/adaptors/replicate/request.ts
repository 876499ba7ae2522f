import { isChatModel } from '@switchyard/contract/model-kinds';
import { RelayError } from '../../errors';
import { type Json, numberOf } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import type { ChatInput, ImageInput } from './wire';

const invalid = (message: string, code: string) => RelayError.invalid(message, code);

/** Replicate's API host: the base URL's origin (one-api's default base carries a path it never used). */
export function apiOrigin(call: RelayCall): string {
  try {
    return new URL(call.baseUrl).origin;
  } catch {
    throw RelayError.gateway(
      500,
      `The channel's base URL is not a URL: ${call.baseUrl}`,
      'channel_config_invalid',
    );
  }
}

/** `owner/name`, as Replicate names its official models. */
const MODEL_NAME = /^[\w.-]+\/[\w.-]+$/;

/** System messages are the system prompt; the conversation is one `role: text` line a message. */
function chatInput(call: RelayCall): ChatInput {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const system = messages.filter((message) => message.role === 'system');
  const turns = messages.filter((message) => message.role !== 'system');
  const only = turns.length === 1 && turns[0]?.role === 'user' ? turns[0] : undefined;
  const prompt = only
    ? messageText(only.content)
    : turns.map((message) => `${String(message.role)}: ${messageText(message.content)}`).join('\n');
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop : [];
  // Unset fields are undefined: JSON leaves them out.
  const input: ChatInput = {
    prompt,
    system_prompt: system.map((message) => messageText(message.content)).join('\n') || undefined,
    max_tokens: numberOf(body.max_tokens) ?? numberOf(body.max_completion_tokens),
    temperature: numberOf(body.temperature),
    top_p: numberOf(body.top_p),
    top_k: numberOf(body.top_k),
    presence_penalty: numberOf(body.presence_penalty),
    frequency_penalty: numberOf(body.frequency_penalty),
    stop_sequences: stop.length > 0 ? stop.map(String).join(',') : undefined,
    seed: numberOf(body.seed),
  };
  return input;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The picture's shape from OpenAI's `size` (1792x1024 → 7:4); Replicate's models take an aspect ratio. */
function imageInput(call: RelayCall): ImageInput {
  const body = call.body ?? {};
  if (body.n !== undefined && body.n !== null && Number(body.n) !== 1) {
    throw invalid('Replicate channels draw one image per request; n must be 1', 'n_not_within_range');
  }
  if (typeof body.prompt !== 'string' || !body.prompt) throw invalid('prompt is required', 'prompt_missing');
  const input: ImageInput = { prompt: body.prompt };
  const size = typeof body.size === 'string' ? /^(\d+)x(\d+)$/.exec(body.size) : null;
  if (size) {
    const [width, height] = [Number(size[1]), Number(size[2])];
    const divisor = gcd(width, height) || 1;
    input.aspect_ratio = `${width / divisor}:${height / divisor}`;
  }
  const seed = numberOf(body.seed);
  if (seed !== undefined) input.seed = seed;
  return input;
}

function inputOf(call: RelayCall): ChatInput | ImageInput {
  const drawing = !isChatModel(call.upstreamModel);
  if (call.mode === 'chat' && !drawing) return chatInput(call);
  if (call.mode === 'images' && drawing) return imageInput(call);
  throw invalid(
    `Replicate model ${call.upstreamModel} does not serve ${call.mode}: chat models chat, image models draw`,
    'unsupported_mode',
  );
}

/** Creates a prediction (the transport then waits for it or reads its stream). */
export function buildRequest(call: RelayCall): UpstreamRequest {
  if (!MODEL_NAME.test(call.upstreamModel)) {
    throw invalid(`Replicate models are named owner/name, not ${call.upstreamModel}`, 'model_not_supported');
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    authorization: `Bearer ${call.apiKey}`,
  };
  return {
    url: `${apiOrigin(call)}/v1/models/${call.upstreamModel}/predictions`,
    method: 'POST',
    headers,
    body: JSON.stringify({ input: inputOf(call), ...(call.isStream ? { stream: true } : {}) }),
  };
}
