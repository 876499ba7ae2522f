import type http from 'node:http';
import { type FakeHandler, sendJson as sendAsJson } from './http-fake';

export interface FakeGeminiOptions {
  apiKey: string;
  reply?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  usage?: {
    promptTokenCount: number;
    candidatesTokenCount: number;
    thoughtsTokenCount?: number;
    /** Part of promptTokenCount. */
    cachedContentTokenCount?: number;
    promptTokensDetails?: Array<{ modality: string; tokenCount: number }>;
  };
  finishReason?: string;
  /** A thought part (with its signature) before the answer, as thinking models send it. */
  thought?: { text: string; signature: string };
  /** What :countTokens answers. */
  countTokens?: number;
  /** Filled with the exact bytes of each answer body the fake sent, in order. */
  sent?: string[];
  /** Answer every call with this Google error instead. */
  error?: { code: number; status: string; message?: string };
}

const PATH =
  /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent|batchEmbedContents|countTokens)$/;

const thoughtPart = (thought: { text: string; signature: string }) => ({
  text: thought.text,
  thought: true,
  thoughtSignature: thought.signature,
});

const googleError = (code: number, status: string, message: string, reason?: string) => ({
  error: {
    code,
    message,
    status,
    ...(reason
      ? {
          details: [
            { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' },
          ],
        }
      : {}),
  },
});

function usageMetadata(options: FakeGeminiOptions, candidates: number) {
  const usage = options.usage ?? { promptTokenCount: 10, candidatesTokenCount: 4 };
  return {
    promptTokenCount: usage.promptTokenCount,
    candidatesTokenCount: candidates,
    ...(usage.thoughtsTokenCount ? { thoughtsTokenCount: usage.thoughtsTokenCount } : {}),
    ...(usage.cachedContentTokenCount ? { cachedContentTokenCount: usage.cachedContentTokenCount } : {}),
    ...(usage.promptTokensDetails ? { promptTokensDetails: usage.promptTokensDetails } : {}),
    totalTokenCount: usage.promptTokenCount + candidates + (usage.thoughtsTokenCount ?? 0),
  };
}

function answer(options: FakeGeminiOptions) {
  const parts: Array<Record<string, unknown>> = [];
  if (options.thought) parts.push(thoughtPart(options.thought));
  if (options.reply !== undefined) parts.push({ text: options.reply });
  if (options.functionCall) parts.push({ functionCall: options.functionCall });
  return {
    candidates: [
      { content: { role: 'model', parts }, finishReason: options.finishReason ?? 'STOP', index: 0 },
    ],
    usageMetadata: usageMetadata(options, options.usage?.candidatesTokenCount ?? 4),
    modelVersion: 'fake-gemini',
    responseId: 'fake-response-1',
  };
}

/** One event per word; usageMetadata grows with each event, as Gemini's running totals do. */
function stream(res: http.ServerResponse, options: FakeGeminiOptions): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let sent = '';
  const write = (event: unknown) => {
    const frame = `data: ${JSON.stringify(event)}\r\n\r\n`;
    sent += frame;
    res.write(frame);
  };
  if (options.thought) {
    write({
      candidates: [{ content: { role: 'model', parts: [thoughtPart(options.thought)] }, index: 0 }],
      usageMetadata: usageMetadata(options, 0),
      responseId: 'fake-stream-1',
    });
  }
  const pieces = (options.reply ?? '').split(/(?= )/).filter(Boolean);
  const total = options.usage?.candidatesTokenCount ?? 4;
  pieces.forEach((text, index) => {
    const last = index === pieces.length - 1 && !options.functionCall;
    const event = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text }] },
          ...(last ? { finishReason: options.finishReason ?? 'STOP' } : {}),
          index: 0,
        },
      ],
      usageMetadata: usageMetadata(options, last ? total : index + 1),
      responseId: 'fake-stream-1',
    };
    write(event);
  });
  if (options.functionCall) {
    const event = {
      candidates: [
        { content: { role: 'model', parts: [{ functionCall: options.functionCall }] }, finishReason: 'STOP' },
      ],
      usageMetadata: usageMetadata(options, total),
      responseId: 'fake-stream-1',
    };
    write(event);
  }
  options.sent?.push(sent);
  res.end();
}

/** A fake Generative Language API: checks path, method, key header and body, then answers as Gemini does. */
export function geminiHandler(options: FakeGeminiOptions): FakeHandler {
  const sendJson = (res: http.ServerResponse, status: number, body: unknown) => {
    options.sent?.push(JSON.stringify(body));
    sendAsJson(res, status, body);
  };
  return (request, res) => {
    const [path = '', query = ''] = request.url.split('?');
    const match = PATH.exec(path);
    if (request.method !== 'POST' || !match) {
      return sendJson(res, 404, googleError(404, 'NOT_FOUND', `Not found: ${request.url}`));
    }
    if (request.headers['x-goog-api-key'] !== options.apiKey || query.includes('key=')) {
      return sendJson(
        res,
        400,
        googleError(
          400,
          'INVALID_ARGUMENT',
          'API key not valid. Please pass a valid API key.',
          'API_KEY_INVALID',
        ),
      );
    }
    if (options.error) {
      const { code, status, message } = options.error;
      return sendJson(res, code, googleError(code, status, message ?? `fake says ${status}`));
    }
    const method = match[3];
    if (method === 'countTokens') return sendJson(res, 200, { totalTokens: options.countTokens ?? 0 });
    if (method === 'batchEmbedContents') {
      const requests = Array.isArray(request.json?.requests) ? request.json.requests : [];
      return sendJson(res, 200, {
        embeddings: requests.map((_item, index) => ({ values: [index, 0.5, -0.5] })),
      });
    }
    if (!Array.isArray(request.json?.contents) || request.json.contents.length === 0) {
      return sendJson(
        res,
        400,
        googleError(400, 'INVALID_ARGUMENT', '* contents: contents is not specified'),
      );
    }
    if (method === 'streamGenerateContent') {
      if (query !== 'alt=sse') return sendJson(res, 200, [answer(options)]);
      return stream(res, options);
    }
    sendJson(res, 200, answer(options));
  };
}
