import type { FastifyReply, FastifyRequest } from 'fastify';
import { geminiNative } from '../../adaptors/gemini/native';
import { RelayError } from '../../errors';
import { checkModelAllowed, type RelayCaller } from '../../pipeline/authenticate';
import type { ChannelRouter } from '../../pipeline/channel-router';
import type { Relay } from '../../pipeline/relay';
import { nativeChatCall } from '../native-chat-call';
import { modelsForCaller } from '../reachable-models';
import { hijackedSink } from '../reply-sink';
import { sendError } from '../send-error';
import { countTokensCall } from './count-tokens';
import { type GeminiCall, parseGeminiBody, parseModelAction, pipelineCopy, wantsThoughts } from './request';
import { GeminiSink } from './sink';

export interface GeminiHandlerDeps {
  relay: Relay;
  router: ChannelRouter;
}

export const modelNotFound = (model: string) =>
  RelayError.invalid(`models/${model} is not found or is not served to this API key`, 'model_not_found', {
    status: 404,
  });

/**
 * The key may call the model, and its group is routed to it (a pinned channel is taken at its word);
 * a model whose channels are all down for now goes on, to be answered 503 where the channel is chosen.
 */
async function checkModelServed(deps: GeminiHandlerDeps, caller: RelayCaller, model: string): Promise<void> {
  checkModelAllowed(caller, model);
  if (caller.pinnedChannelId !== undefined) return;
  if ((await modelsForCaller(deps.router, caller)).includes(model)) return;
  if ((await deps.router.whyNoChannel(caller.user.group || 'default', model)) !== 'down')
    throw modelNotFound(model);
}

/** POST models/{model}:{action}: generateContent, streamGenerateContent or countTokens. */
export async function handleModelAction(
  deps: GeminiHandlerDeps,
  request: FastifyRequest<{ Params: { '*': string } }>,
  reply: FastifyReply,
  { requestId, caller }: { requestId: string; caller: RelayCaller },
): Promise<void> {
  const sink = hijackedSink(reply, requestId);
  try {
    const { model, action } = parseModelAction(request.params['*']);
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const query = request.query as Record<string, unknown> | undefined;
    const call: GeminiCall = {
      model,
      action,
      sse: query?.alt === 'sse',
      body: parseGeminiBody(rawBody),
      rawBody,
    };
    await checkModelServed(deps, caller, model);
    if (action === 'countTokens') {
      await deps.relay.unbilled(caller, countTokensCall(requestId, call, request.headers), sink);
      return;
    }
    const { body, untranslatable } = pipelineCopy(call);
    await deps.relay.handle(
      caller,
      nativeChatCall(requestId, body, {
        format: geminiNative,
        rawBody,
        body: call.body,
        headers: request.headers,
        untranslatable,
      }),
      new GeminiSink(sink, { model, fallbackId: requestId, includeThoughts: wantsThoughts(call) }, call.sse),
    );
  } catch (error) {
    sendError(reply, requestId, error, request.log, 'gemini');
  }
}
