import { channelSecrets } from '../../../domain/channel-secrets';
import { redactSecretsInJsonText } from '../../../domain/redact-secrets';
import { authHeaders } from '../../adaptors/gemini/auth';
import { apiVersion } from '../../adaptors/gemini/endpoint';
import { parseError } from '../../adaptors/gemini/errors';
import { geminiNative } from '../../adaptors/gemini/native';
import { withFieldAt } from '../../adaptors/native-body';
import type { ClientSignal } from '../../client-signal';
import { asObject } from '../../json-value';
import { speaks } from '../../pipeline/native';
import type { Relay, SideCall } from '../../pipeline/relay';
import { toOpenAiMessages } from './contents';
import { countTokensRequest, type GeminiCall } from './request';
import { toOpenAiTools } from './tools';

/**
 * countTokens: the model's channel answers it when it is a Gemini one (the client's body passed
 * through to `models/{upstream model}:countTokens`), else our tokenizer counts the converted
 * messages plus the tools' JSON. Neither is billed nor logged.
 */
export async function countTokens(
  relay: Relay,
  caller: Parameters<Relay['sideCall']>[0],
  call: GeminiCall,
  signal: ClientSignal,
): Promise<{ status: number; body: string | Buffer }> {
  return relay.sideCall(caller, call.model, async (side) => {
    if (speaks(geminiNative, side.channel.type)) return upstreamCount(side, call, signal);
    const { body } = countTokensRequest(call);
    const messages = toOpenAiMessages(body.contents, body.systemInstruction);
    const tools = toOpenAiTools(body.tools);
    const toolTokens = tools ? side.counter.text(JSON.stringify(tools), call.model) : 0;
    const totalTokens = side.counter.messages(messages, call.model) + toolTokens;
    return { status: 200, body: JSON.stringify({ totalTokens }) };
  });
}

/**
 * The client's body; a whole `generateContentRequest` names its model too (`models/…`), mapped as the
 * path's is.
 */
function countBody(side: SideCall, call: GeminiCall): Buffer {
  const inner = asObject(call.body.generateContentRequest);
  if (side.upstreamModel === call.model || typeof inner?.model !== 'string') return call.rawBody;
  return withFieldAt(call.rawBody, ['generateContentRequest', 'model'], `models/${side.upstreamModel}`);
}

/** The Gemini channel's own count, its answer (or error) passed on as it sent it. */
async function upstreamCount(side: SideCall, call: GeminiCall, signal: ClientSignal) {
  const upstream = await side.upstream.send(
    {
      url: `${side.baseUrl}/${apiVersion(side)}/models/${side.upstreamModel}:countTokens`,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders(side.channel.key) },
      body: countBody(side, call),
    },
    signal,
  );
  const answer = await side.upstream.readWhole(upstream.body);
  if (upstream.status === 200) return { status: 200, body: answer };
  // An error the client reads in Google's shape; a body that is not one is worded by us.
  const secrets = channelSecrets(side.channel);
  const error = parseError(upstream.status, answer).withoutSecrets(secrets);
  const asSent = redactSecretsInJsonText(answer.toString(), secrets);
  if (error.code === 'bad_response_status_code' || asSent === undefined) throw error;
  return { status: upstream.status, body: asSent };
}
