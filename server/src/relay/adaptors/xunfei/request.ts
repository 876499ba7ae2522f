import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';
import { messageText } from '../openai-format';
import type { RelayCall, UpstreamRequest } from '../types';
import { credentialsOf, signedUrl } from './auth';
import { sparkDomain, sparkUrl, sparkVersion } from './version';
import type { SparkFunction, SparkRequest } from './wire';

function functionsOf(tools: unknown): SparkFunction[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => {
    const fn = asObject(asObject(tool)?.function);
    if (typeof fn?.name !== 'string') return [];
    return [{ name: fn.name, description: String(fn.description ?? ''), parameters: fn.parameters }];
  });
}

export function sparkRequest(call: RelayCall, appId: string, domain: string): SparkRequest {
  const body = call.body ?? {};
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const chat: SparkRequest['parameter']['chat'] = { domain };
  if (typeof body.temperature === 'number') chat.temperature = body.temperature;
  if (typeof body.top_k === 'number') chat.top_k = body.top_k;
  const maxTokens = body.max_tokens ?? body.max_completion_tokens;
  if (typeof maxTokens === 'number') chat.max_tokens = maxTokens;
  const request: SparkRequest = {
    header: { app_id: appId, ...(typeof body.user === 'string' ? { uid: body.user.slice(0, 32) } : {}) },
    parameter: { chat },
    payload: {
      message: {
        text: messages.map((message) => ({
          role: String(message.role ?? 'user'),
          content: messageText(message.content),
        })),
      },
    },
  };
  const functions = functionsOf(body.tools);
  if (functions.length > 0) request.payload.functions = { text: functions };
  return request;
}

/** The signed WebSocket address and the one request frame; the transport sends them. */
export function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(`iFlytek Spark channels relay chat, not ${call.mode}`, 'unsupported_mode');
  }
  const credentials = credentialsOf(call);
  const version = sparkVersion(call);
  return {
    url: signedUrl(sparkUrl(call, version), credentials),
    method: 'GET',
    headers: {},
    body: JSON.stringify(sparkRequest(call, credentials.appId, sparkDomain(version))),
  };
}
