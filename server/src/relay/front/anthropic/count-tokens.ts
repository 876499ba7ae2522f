import { channelSecrets } from '../../../domain/channel-secrets';
import { redactSecretsInJsonText } from '../../../domain/redact-secrets';
import { authHeaders } from '../../adaptors/anthropic/auth';
import { parseError } from '../../adaptors/anthropic/errors';
import { anthropicNative, forwardedHeaders } from '../../adaptors/anthropic/native';
import { withTopLevelFields } from '../../adaptors/native-body';
import type { ClientSignal } from '../../client-signal';
import type { Json } from '../../json-value';
import { speaks } from '../../pipeline/native';
import type { Relay, SideCall } from '../../pipeline/relay';
import { anthropicToOpenAi } from './request';

export interface CountTokensRequest {
  rawBody: Buffer;
  body: Json;
  headers: Record<string, string | string[] | undefined>;
  signal: ClientSignal;
}

/**
 * Anthropic's `/v1/messages/count_tokens`: the model's channel answers it when it is an Anthropic one
 * (the client's body passed through, the model mapped), else our tokenizer counts the converted
 * messages and the tool definitions. Neither is billed nor logged.
 */
export async function countTokens(
  relay: Relay,
  caller: Parameters<Relay['sideCall']>[0],
  request: CountTokensRequest,
): Promise<{ status: number; body: string | Buffer }> {
  // The same checks as a message, max_tokens aside (count_tokens takes none).
  const converted = anthropicToOpenAi({ ...request.body, max_tokens: 1 });
  const model = String(request.body.model);
  return relay.sideCall(caller, model, async (side) => {
    if (!speaks(anthropicNative, side.channel.type)) {
      const tools = Array.isArray(request.body.tools) ? JSON.stringify(request.body.tools) : '';
      const inputTokens = side.counter.messages(converted.messages, model) + side.counter.text(tools, model);
      return { status: 200, body: JSON.stringify({ input_tokens: inputTokens }) };
    }
    return upstreamCount(side, request, model);
  });
}

/** The Anthropic channel's own count, its answer (or error) passed on as it sent it. */
async function upstreamCount(side: SideCall, request: CountTokensRequest, model: string) {
  const body =
    side.upstreamModel === model
      ? request.rawBody
      : withTopLevelFields(request.rawBody, { model: side.upstreamModel });
  const upstream = await side.upstream.send(
    {
      url: `${side.baseUrl}/v1/messages/count_tokens`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...authHeaders(side.channel.key),
        ...forwardedHeaders(request.headers),
      },
      body,
    },
    request.signal,
  );
  const answer = await side.upstream.readWhole(upstream.body);
  if (upstream.status === 200) return { status: 200, body: answer };
  // An error the client reads in Anthropic's shape; a body that is not one is worded by us.
  const secrets = channelSecrets(side.channel);
  const error = parseError(upstream.status, answer).withoutSecrets(secrets);
  const asSent = redactSecretsInJsonText(answer.toString(), secrets);
  if (error.code === 'bad_response_status_code' || asSent === undefined) throw error;
  return { status: upstream.status, body: asSent };
}
