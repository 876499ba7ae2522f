import { BEDROCK_MODEL_IDS } from '@switchyard/contract/channel-types-cloud';
import { type Json, numberOf } from '../../json-value';
import { BEDROCK_CLAUDE_VERSION, cloudClaudeBody } from '../aws/claude-body';
import { invokeRequest } from '../aws/request';
import type { NativeRequest, RelayCall, UpstreamRequest } from '../types';
import { isVertexClaude, VERTEX_CLAUDE_VERSION, vertexRequest } from '../vertex/request';

/** Claude models a cloud serves (Bedrock's table, Vertex's `claude…` names) take Anthropic's own body. */
export function cloudServesClaude(apiStyle: string | undefined, model: string | undefined): boolean {
  if (!model) return false;
  if (apiStyle === 'aws') return BEDROCK_MODEL_IDS[model]?.startsWith('anthropic.') === true;
  return apiStyle === 'vertex' && isVertexClaude(model);
}

/** The client's body with the pipeline's lower max_tokens, when it had to lower it. */
function clientBody(call: RelayCall, native: NativeRequest): Json {
  const body = JSON.parse(native.rawBody.toString()) as Json;
  const limit = numberOf(call.body?.max_tokens);
  return limit !== undefined && limit < Number(body.max_tokens) ? { ...body, max_tokens: limit } : body;
}

/**
 * A `/v1/messages` call on Claude in a cloud: the client's body in the cloud's envelope (its API
 * version in the body, the model in the URL; Bedrock picks streaming by URL too), with the cloud's
 * own credentials. The answer is Anthropic's, passed back as it comes.
 */
export function cloudClaudeRequest(
  apiStyle: string | undefined,
  call: RelayCall,
  native: NativeRequest,
): Promise<UpstreamRequest> {
  const body = clientBody(call, native);
  if (apiStyle === 'aws') {
    const modelId = BEDROCK_MODEL_IDS[call.upstreamModel] ?? call.upstreamModel;
    return invokeRequest(call, modelId, cloudClaudeBody(body, BEDROCK_CLAUDE_VERSION, false));
  }
  return vertexRequest(call, cloudClaudeBody(body, VERTEX_CLAUDE_VERSION, true));
}
