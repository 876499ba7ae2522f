import type http from 'node:http';
import { type FakeHandler, sendJson } from './http-fake';

export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One chat answer, as an OpenAI(-compatible) upstream gives it: text, reasoning, tool calls, usage. */
export interface ScriptedAnswer {
  content?: string;
  /** Sent as `reasoning_content`, as DeepSeek and other OpenAI-compatible reasoners do. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  finishReason?: string;
  /** The whole `usage` object (details included); null sends none. */
  usage?: Record<string, unknown> | null;
  /** Streams only: break the connection after the content's words instead of finishing. */
  cutAfterContent?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const DEFAULT_USAGE = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 };

function finishReasonOf(answer: ScriptedAnswer): string {
  return answer.finishReason ?? (answer.toolCalls?.length ? 'tool_calls' : 'stop');
}

function completion(answer: ScriptedAnswer, model: string) {
  const usage = answer.usage === undefined ? DEFAULT_USAGE : answer.usage;
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content ?? null,
          ...(answer.reasoning ? { reasoning_content: answer.reasoning } : {}),
          ...(answer.toolCalls?.length
            ? {
                tool_calls: answer.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: finishReasonOf(answer),
      },
    ],
    ...(usage ? { usage } : {}),
  };
}

/** The chunks OpenAI streams: reasoning, then words, then each tool call's head and its arguments in halves. */
async function stream(res: http.ServerResponse, answer: ScriptedAnswer, model: string, withUsage: boolean) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) =>
    res.write(
      `data: ${JSON.stringify({
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...extra,
      })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  for (const piece of answer.reasoning?.split(/(?= )/) ?? []) send({ reasoning_content: piece });
  for (const piece of answer.content?.split(/(?= )/) ?? []) {
    send({ content: piece });
    await sleep(5);
  }
  if (answer.cutAfterContent) {
    await sleep(50);
    res.socket?.destroy();
    return;
  }
  for (const [index, call] of (answer.toolCalls ?? []).entries()) {
    send({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    const middle = Math.floor(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, middle), call.arguments.slice(middle)])
      send({ tool_calls: [{ index, function: { arguments: part } }] });
  }
  send({}, finishReasonOf(answer));
  const usage = answer.usage === undefined ? DEFAULT_USAGE : answer.usage;
  if (withUsage && usage) {
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage })}\n\n`,
    );
  }
  res.end('data: [DONE]\n\n');
}

/** An OpenAI chat completions upstream that answers `answer()` (JSON or SSE, as asked). */
export function scriptedChatHandler(answer: () => ScriptedAnswer): FakeHandler {
  return async (request, res) => {
    if (!request.url.endsWith('/chat/completions')) {
      sendJson(res, 404, {
        error: { message: `Unknown path ${request.url}`, type: 'invalid_request_error' },
      });
      return;
    }
    const body = request.json ?? {};
    const model = String(body.model);
    if (body.stream === true) {
      const options = body.stream_options as { include_usage?: boolean } | undefined;
      await stream(res, answer(), model, options?.include_usage === true);
      return;
    }
    sendJson(res, 200, completion(answer(), model));
  };
}
