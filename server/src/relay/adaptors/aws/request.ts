import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import type { RelayCall, UpstreamRequest } from '../types';
import { BEDROCK_CLAUDE_VERSION, openAiToCloudClaude } from './claude-body';
import { awsCredentialsOf, bedrockBaseUrl } from './credentials';
import { llamaBody } from './llama';
import { bedrockModelOf } from './models';
import { signedPost } from './sign';

/** InvokeModel, or InvokeModelWithResponseStream, for the model's Bedrock id; signed. */
export function invokeRequest(call: RelayCall, modelId: string, body: Json): Promise<UpstreamRequest> {
  const credentials = awsCredentialsOf(call);
  const action = call.isStream ? 'invoke-with-response-stream' : 'invoke';
  const url = `${bedrockBaseUrl(call, credentials.region)}/model/${encodeURIComponent(modelId)}/${action}`;
  const accept = call.isStream ? 'application/vnd.amazon.eventstream' : 'application/json';
  return signedPost(url, JSON.stringify(body), accept, credentials);
}

export function buildRequest(call: RelayCall): Promise<UpstreamRequest> {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(
      `AWS Bedrock channels relay chat completions only, not ${call.mode}`,
      'unsupported_mode',
    );
  }
  const model = bedrockModelOf(call.upstreamModel);
  const body = call.body ?? {};
  const upstreamBody =
    model.family === 'llama3'
      ? llamaBody(body)
      : openAiToCloudClaude(body, call.upstreamModel, BEDROCK_CLAUDE_VERSION, false);
  return invokeRequest(call, model.id, upstreamBody);
}
