import { createHash, createHmac } from 'node:crypto';
import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeHunyuanOptions {
  secretId: string;
  secretKey: string;
  reply?: string;
  usage?: { PromptTokens: number; CompletionTokens: number };
  /** Answer every call with this Tencent error code instead. */
  errorCode?: string;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

const AUTHORIZATION =
  /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/hunyuan\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

/** Checks a TC3-HMAC-SHA256 signature as Tencent Cloud does; answers the error code, or undefined when valid. */
export function verifyTc3(request: RecordedRequest, secretId: string, secretKey: string): string | undefined {
  const match = AUTHORIZATION.exec(String(request.headers.authorization ?? ''));
  if (!match) return 'AuthFailure.InvalidAuthorization';
  const [, id, date, signedHeaders = '', signature] = match;
  if (id !== secretId) return 'AuthFailure.SecretIdNotFound';
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) {
    return 'AuthFailure.SignatureExpire';
  }
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return 'AuthFailure.SignatureFailure';
  const names = signedHeaders.split(';');
  if (!names.includes('content-type') || !names.includes('host')) return 'AuthFailure.SignatureFailure';
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const [path = '/', query = ''] = request.url.split('?');
  const canonical = [
    request.method,
    path,
    query,
    canonicalHeaders,
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');
  const scope = `${date}/hunyuan/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(`TC3${secretKey}`, date ?? ''), 'hunyuan'), 'tc3_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? undefined : 'AuthFailure.SignatureFailure';
}

const failure = (res: http.ServerResponse, code: string) =>
  sendJson(res, 200, {
    Response: { Error: { Code: code, Message: `fake says ${code}` }, RequestId: 'req-err' },
  });

/** Hunyuan on Tencent Cloud API 3.0: POST / with X-TC-Action ChatCompletions (JSON or SSE) or GetEmbedding. */
export function hunyuanHandler(options: FakeHunyuanOptions): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake Hunyuan';
  const usage = options.usage ?? { PromptTokens: 17, CompletionTokens: 8 };
  return async (request: RecordedRequest, res: http.ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/') return failure(res, 'InvalidAction');
    if (request.headers['x-tc-version'] !== '2023-09-01') return failure(res, 'InvalidParameter.Version');
    const refused = verifyTc3(request, options.secretId, options.secretKey);
    if (refused) return failure(res, refused);
    if (options.errorCode) return failure(res, options.errorCode);
    const body = request.json ?? {};
    const action = request.headers['x-tc-action'];
    if (action === 'GetEmbedding') {
      const inputs = Array.isArray(body.InputList) ? body.InputList : [body.Input];
      const data = inputs.map((_, index) => ({
        Embedding: [index, 0.25],
        Index: index,
        Object: 'embedding',
      }));
      const Usage = { PromptTokens: 5 * inputs.length, TotalTokens: 5 * inputs.length };
      return sendJson(res, 200, { Response: { Data: data, Usage, RequestId: 'req-emb' } });
    }
    if (action !== 'ChatCompletions') return failure(res, 'InvalidAction');
    const total = (completion: number) => ({
      PromptTokens: usage.PromptTokens,
      CompletionTokens: completion,
      TotalTokens: usage.PromptTokens + completion,
    });
    if (body.Stream !== true) {
      return sendJson(res, 200, {
        Response: {
          Id: 'hy-1',
          Created: 1,
          Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: reply } }],
          Usage: total(usage.CompletionTokens),
          RequestId: 'req-1',
        },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const words = reply.split(' ');
    for (const [index, word] of words.entries()) {
      const last = index === words.length - 1;
      const event = {
        Id: 'hy-2',
        Created: 1,
        Note: 'fake',
        Choices: [
          {
            Delta: { Role: 'assistant', Content: index ? ` ${word}` : word },
            FinishReason: last ? 'stop' : '',
          },
        ],
        // A running total: the last event holds the whole count.
        Usage: total(last ? usage.CompletionTokens : index + 1),
      };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  };
}
