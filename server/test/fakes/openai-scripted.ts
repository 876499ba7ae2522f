import { type FakeHandler, sendJson } from './http-fake';

/** What a scripted OpenAI chat answer holds: text, reasoning, tool calls, and the usage it reports. */
export interface ScriptedChat {
  content?: string;
  reasoning?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  finishReason?: string;
  usage: Record<string, unknown>;
}

/**
 * An OpenAI chat answer of the script's choosing (JSON, or SSE: reasoning and text one chunk each,
 * a tool call's arguments in two pieces, the finish chunk, then the usage chunk when asked for).
 */
export function scriptedChat(script: ScriptedChat): FakeHandler {
  return (request, res) => {
    const model = String(request.json?.model ?? 'gpt-4o-mini');
    const base = { id: 'chatcmpl-scripted', created: 1, model };
    const toolCalls = script.toolCalls?.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    const finishReason = script.finishReason ?? (toolCalls ? 'tool_calls' : 'stop');
    if (request.json?.stream !== true) {
      const message = {
        role: 'assistant',
        content: script.content ?? null,
        ...(script.reasoning ? { reasoning_content: script.reasoning } : {}),
        ...(toolCalls ? { tool_calls: toolCalls } : {}),
      };
      sendJson(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finishReason }],
        usage: script.usage,
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    if (script.reasoning) send({ role: 'assistant', reasoning_content: script.reasoning });
    if (script.content) send({ content: script.content });
    for (const [index, call] of (script.toolCalls ?? []).entries()) {
      const half = Math.floor(call.arguments.length / 2);
      send({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments.slice(0, half) },
          },
        ],
      });
      send({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] });
    }
    send({}, finishReason);
    const streamOptions = request.json?.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: script.usage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  };
}
