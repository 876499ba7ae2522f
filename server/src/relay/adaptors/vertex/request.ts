import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import { openAiToCloudClaude } from '../aws/claude-body';
import { toGeminiChatRequest } from '../gemini/request';
import type { RelayCall, UpstreamRequest } from '../types';
import { vertexSettingsOf } from './credentials';
import { vertexTokens } from './token';

export const VERTEX_CLAUDE_VERSION = 'vertex-2023-10-16';

/** Claude models are Anthropic's on Vertex; every other name is one of Google's (Gemini). */
export const isVertexClaude = (model: string): boolean => model.startsWith('claude');

/** Vertex names model versions with `@` (claude-3-5-sonnet-v2@20241022), which stays as it is in the path. */
const modelSegment = (model: string) => encodeURIComponent(model).replaceAll('%40', '@');

/** The channel's base URL when set, else the region's Vertex AI host. */
function vertexUrl(call: RelayCall, region: string, projectId: string): string {
  const base = call.baseUrl || `https://${region}-aiplatform.googleapis.com`;
  const claude = isVertexClaude(call.upstreamModel);
  const action = claude
    ? call.isStream
      ? 'streamRawPredict'
      : 'rawPredict'
    : call.isStream
      ? 'streamGenerateContent?alt=sse'
      : 'generateContent';
  const publisher = claude ? 'anthropic' : 'google';
  return `${base}/v1/projects/${encodeURIComponent(projectId)}/locations/${encodeURIComponent(region)}/publishers/${publisher}/models/${modelSegment(call.upstreamModel)}:${action}`;
}

/** The request for `body` (already in the model's own format), with an access token of the channel's service account. */
export async function vertexRequest(call: RelayCall, body: Json): Promise<UpstreamRequest> {
  const { region, projectId, account } = vertexSettingsOf(call);
  const token = await vertexTokens.get(call.channel.id, account);
  return {
    url: vertexUrl(call, region, projectId),
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  };
}

export function buildRequest(call: RelayCall): Promise<UpstreamRequest> {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(
      `Vertex AI channels relay chat completions only, not ${call.mode}`,
      'unsupported_mode',
    );
  }
  const body = call.body ?? {};
  const upstreamBody = isVertexClaude(call.upstreamModel)
    ? openAiToCloudClaude(body, call.upstreamModel, VERTEX_CLAUDE_VERSION, call.isStream)
    : (toGeminiChatRequest(body, call.upstreamModel) as unknown as Json);
  return vertexRequest(call, upstreamBody);
}
