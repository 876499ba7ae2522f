import { parseError as anthropicParseError } from '../anthropic/errors';
import { convertResponse as convertClaudeResponse } from '../anthropic/response';
import { AnthropicStream } from '../anthropic/stream';
import { parseError as geminiParseError } from '../gemini/errors';
import { convertResponse as convertGeminiResponse } from '../gemini/response';
import { GeminiStream } from '../gemini/stream';
import type { Adaptor } from '../types';
import { buildRequest, isVertexClaude } from './request';

/** Anthropic's error bodies say `"type": "error"`; Google's own are `{"error": {code, message, status}}`. */
function parseError(status: number, body: Buffer) {
  let anthropicShaped = false;
  try {
    anthropicShaped = (JSON.parse(body.toString()) as { type?: unknown })?.type === 'error';
  } catch {
    // not JSON: either reads it leniently
  }
  return anthropicShaped ? anthropicParseError(status, body) : geminiParseError(status, body);
}

/**
 * Google Vertex AI with a service account (config region, vertex_ai_project_id, vertex_ai_adc): Gemini
 * through generateContent (Gemini's converters) and Claude through rawPredict (Anthropic's). The
 * access token comes from an OAuth JWT-bearer exchange, cached per channel (token.ts).
 */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse: (call, body) =>
    isVertexClaude(call.upstreamModel)
      ? convertClaudeResponse(call, body)
      : convertGeminiResponse(call, body),
  streamTranslator: (call) =>
    isVertexClaude(call.upstreamModel) ? new AnthropicStream(call) : new GeminiStream(call),
  parseError,
};
