import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeOpenAiOptions {
  /** The answer's text; split into one stream chunk per word. */
  reply?: string;
  /** With `prompt_tokens_details` / `completion_tokens_details` when given. */
  usage?: FakeOpenAiUsage | null;
  /** Wait before answering (ms). */
  delayMs?: number;
  /** Wait between stream chunks (ms). */
  chunkDelayMs?: number;
  /** Streams only: stay silent this long after the head before the first chunk (ms). */
  silenceMs?: number;
  /** Chat: the model's thinking, as DeepSeek sends it (`reasoning_content`), streamed before the text. */
  reasoning?: string;
  /** Chat: answer with this tool call (after any text); finish_reason becomes tool_calls. */
  toolCall?: { id: string; name: string; arguments: string };
}

interface FakeOpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: Record<string, number>;
  completion_tokens_details?: Record<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Totals = (FakeOpenAiUsage & { total_tokens: number }) | null;

/**
 * A streamed chat or legacy completion, one chunk per word, then the finish chunk, then (when the
 * request asked with `stream_options.include_usage`) a usage chunk with no choices, as OpenAI sends it.
 */
async function streamAnswer(
  res: http.ServerResponse,
  body: Record<string, unknown>,
  kind: 'chat' | 'completions',
  model: string,
  reply: string,
  totals: Totals,
  options: FakeOpenAiOptions,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (options.silenceMs) {
    res.flushHeaders();
    await sleep(options.silenceMs);
  }
  const chat = kind === 'chat';
  const id = chat ? 'chatcmpl-fake' : 'cmpl-fake';
  const object = chat ? 'chat.completion.chunk' : 'text_completion';
  const choice = (piece: string | undefined, finish: string | null) =>
    chat
      ? { index: 0, delta: piece === undefined ? {} : { content: piece }, finish_reason: finish }
      : { index: 0, text: piece ?? '', finish_reason: finish };
  const send = (delta: Record<string, unknown>, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id, object, created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  for (const piece of chat && options.reasoning ? options.reasoning.split(/(?= )/) : [])
    send({ reasoning_content: piece, content: null });
  for (const [index, word] of (reply ? reply.split(' ') : []).entries()) {
    const chunk = { id, object, created: 1, model, choices: [choice(index === 0 ? word : ` ${word}`, null)] };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (options.chunkDelayMs) await sleep(options.chunkDelayMs);
  }
  const call = chat ? options.toolCall : undefined;
  if (call) {
    const half = Math.floor(call.arguments.length / 2);
    send({
      tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)])
      send({ tool_calls: [{ index: 0, function: { arguments: part } }] });
    send({}, 'tool_calls');
  } else {
    res.write(
      `data: ${JSON.stringify({ id, object, created: 1, model, choices: [choice(undefined, 'stop')] })}\n\n`,
    );
  }
  const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
  if (wantsUsage && totals) {
    res.write(`data: ${JSON.stringify({ id, object, created: 1, model, choices: [], usage: totals })}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

/** OpenAI's documented answers: chat (JSON and SSE), completions, embeddings, moderations, images, speech. */
export function openAiHandler(options: FakeOpenAiOptions = {}): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake upstream';
  const usage = options.usage === undefined ? { prompt_tokens: 11, completion_tokens: 7 } : options.usage;
  return async (request: RecordedRequest, res: http.ServerResponse) => {
    if (options.delayMs) await sleep(options.delayMs);
    const body = request.json ?? {};
    const model = String(body.model ?? 'gpt-3.5-turbo');
    const path = request.url.split('?')[0] ?? '';
    const withTotals = usage && { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    if (path.endsWith('/chat/completions') || path.endsWith('/chatcompletion_v2')) {
      if (body.stream === true) {
        await streamAnswer(res, body, 'chat', model, reply, withTotals, options);
        return;
      }
      sendJson(res, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply || null,
              ...(options.reasoning ? { reasoning_content: options.reasoning } : {}),
              ...(options.toolCall
                ? {
                    tool_calls: [
                      {
                        id: options.toolCall.id,
                        type: 'function',
                        function: { name: options.toolCall.name, arguments: options.toolCall.arguments },
                      },
                    ],
                  }
                : {}),
            },
            finish_reason: options.toolCall ? 'tool_calls' : 'stop',
          },
        ],
        ...(withTotals ? { usage: withTotals } : {}),
      });
      return;
    }
    if (path.endsWith('/completions')) {
      if (body.stream === true) {
        await streamAnswer(res, body, 'completions', model, reply, withTotals, options);
        return;
      }
      sendJson(res, 200, {
        id: 'cmpl-fake',
        object: 'text_completion',
        model,
        choices: [{ index: 0, text: reply, finish_reason: 'stop' }],
        ...(withTotals ? { usage: withTotals } : {}),
      });
      return;
    }
    if (path.endsWith('/embeddings')) {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      sendJson(res, 200, {
        object: 'list',
        model,
        data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] })),
        usage: { prompt_tokens: usage?.prompt_tokens ?? 0, total_tokens: usage?.prompt_tokens ?? 0 },
      });
      return;
    }
    if (path.endsWith('/moderations')) {
      sendJson(res, 200, {
        id: 'modr-fake',
        model,
        results: [{ flagged: false, categories: {}, category_scores: {} }],
      });
      return;
    }
    if (/\/images\/(generations|edits|variations)$/.test(path)) {
      sendJson(res, 200, { created: 1, data: [{ url: 'https://example.com/image.png' }] });
      return;
    }
    if (path.endsWith('/audio/speech')) {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.from('ID3fake-mp3-bytes'));
      return;
    }
    if (path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations')) {
      sendJson(res, 200, { text: reply });
      return;
    }
    sendJson(res, 404, {
      error: { message: `Unknown path ${path}`, type: 'invalid_request_error', code: 'unknown_url' },
    });
  };
}

/** An OpenAI error answer, as OpenAI sends it. */
export function openAiError(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
): FakeHandler {
  return (_request, res) => sendJson(res, status, { error: { message, type, param: null, code } });
}
