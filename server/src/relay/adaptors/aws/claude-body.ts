import type { Json } from '../../json-value';
import { toAnthropicRequest } from '../anthropic/request';

/**
 * Claude on a cloud (Bedrock, Vertex) takes Anthropic's Messages body with the cloud's API version in
 * it, the model in the URL instead and no `metadata`. Bedrock also chooses streaming by its URL.
 */
export function cloudClaudeBody(body: Json, version: string, keepStream: boolean): Json {
  const { model: _model, stream, metadata: _metadata, ...rest } = body;
  return { anthropic_version: version, ...rest, ...(keepStream && stream === true ? { stream } : {}) };
}

/** An OpenAI chat request → the cloud's Claude body (Anthropic's converter, then the envelope). */
export const openAiToCloudClaude = (body: Json, model: string, version: string, stream: boolean): Json =>
  cloudClaudeBody(toAnthropicRequest({ ...body, stream }, model) as unknown as Json, version, stream);

export const BEDROCK_CLAUDE_VERSION = 'bedrock-2023-05-31';
