import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeZhipuOptions {
  /** The key the fake knows: `id` is the token's `api_key` claim, `secret` signs it. */
  id: string;
  secret: string;
  reply?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer every authenticated call with this business error code instead. */
  errorCode?: number;
  /** v3 streams: break off after the first `add` with this event. */
  streamEnd?: 'error' | 'interrupted';
}

const MESSAGES: Record<number, string> = {
  1000: '身份验证失败。',
  1001: 'Header中未收到Authorization参数，无法进行身份验证。',
  1002: 'Authorization Token非法，请确认Authorization Token正确传递。',
  1003: 'Authorization Token已过期，请重新生成/获取。',
  1113: '您的账户已欠费，请充值后重试。',
  1211: '模型不存在，请检查模型代码。',
  1214: '参数非法。请检查文档。',
  1261: 'Prompt 超长',
  1301: '系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。',
  1302: '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。',
  500: '内部错误',
};

/** The HTTP status v4 answers each code with (v3 answers business errors with 200). */
const V4_STATUS: Record<number, number> = {
  1000: 401,
  1001: 401,
  1002: 401,
  1003: 401,
  1113: 429,
  1211: 400,
  1214: 400,
  1261: 400,
  1301: 400,
  1302: 429,
  500: 500,
};

const decode = (part: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/**
 * Checks the bare-token `Authorization` header as Zhipu does: an HS256 JWT with `sign_type: SIGN`,
 * signed with the key's secret, `api_key` the key's id, `exp` (milliseconds) still ahead. Answers the
 * business error code, or undefined when valid.
 */
export function verifyZhipuToken(authorization: string | undefined, id: string, secret: string) {
  if (!authorization) return 1001;
  const parts = authorization.split('.');
  if (parts.length !== 3) return 1002;
  const [headerPart = '', claimsPart = '', signature = ''] = parts;
  const header = decode(headerPart);
  const claims = decode(claimsPart);
  if (header?.alg !== 'HS256' || header.sign_type !== 'SIGN' || !claims) return 1002;
  if (claims.api_key !== id) return 1000;
  const expected = createHmac('sha256', secret).update(`${headerPart}.${claimsPart}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 1002;
  const now = Date.now();
  if (typeof claims.exp !== 'number' || claims.exp <= now) return 1003;
  if (typeof claims.timestamp !== 'number') return 1002;
  return undefined;
}

/** A token as Zhipu's own SDK signs one, for checking the fake itself. */
export function fakeZhipuToken(id: string, secret: string, issuedAt: number, lifetimeMs: number): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' })).toString('base64url');
  const claims = Buffer.from(
    JSON.stringify({ api_key: id, exp: issuedAt + lifetimeMs, timestamp: issuedAt }),
  ).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

const v4Failure = (res: http.ServerResponse, code: number) =>
  sendJson(res, V4_STATUS[code] ?? 500, {
    error: { code: String(code), message: MESSAGES[code] ?? 'error' },
  });

const v3Failure = (res: http.ServerResponse, code: number) =>
  sendJson(res, 200, { code, msg: MESSAGES[code] ?? 'error', success: false });

const withTotal = (usage: { prompt_tokens: number; completion_tokens: number }) => ({
  ...usage,
  total_tokens: usage.prompt_tokens + usage.completion_tokens,
});

const V3_PATH = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/;

/** Zhipu's open platform: v4 chat (JSON and SSE), embeddings and images; v3 invoke and sse-invoke. */
export function zhipuHandler(options: FakeZhipuOptions): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake GLM';
  const usage = options.usage ?? { prompt_tokens: 21, completion_tokens: 9 };
  return (request: RecordedRequest, res: http.ServerResponse) => {
    const path = request.url.split('?')[0] ?? '';
    const v3 = V3_PATH.exec(path);
    const failure = v3 ? v3Failure : v4Failure;
    if (request.method !== 'POST') return sendJson(res, 405, { error: { code: '1222', message: 'no' } });
    const refused = verifyZhipuToken(request.headers.authorization, options.id, options.secret);
    if (refused) return failure(res, refused);
    if (options.errorCode) return failure(res, options.errorCode);
    const body = request.json ?? {};
    if (v3) return v3Answer(v3[1] ?? '', v3[2] === 'sse-invoke', body, res, { ...options, reply, usage });
    if (path === '/api/paas/v4/chat/completions') return v4Chat(body, res, reply, usage);
    if (path === '/api/paas/v4/embeddings') {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      if (inputs.some((input) => typeof input !== 'string')) return failure(res, 1214);
      const data = inputs.map((_, index) => ({ index, object: 'embedding', embedding: [index, 0.5, -1] }));
      const tokens = 3 * inputs.length;
      return sendJson(res, 200, {
        model: body.model,
        object: 'list',
        data,
        usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
      });
    }
    if (path === '/api/paas/v4/images/generations') {
      if (typeof body.prompt !== 'string' || !body.prompt) return failure(res, 1214);
      return sendJson(res, 200, { created: 1, data: [{ url: 'https://fake.bigmodel.cn/image.png' }] });
    }
    return sendJson(res, 404, { error: { code: '1222', message: `API ${path} 不存在` } });
  };
}

function v4Chat(
  body: Record<string, unknown>,
  res: http.ServerResponse,
  reply: string,
  usage: { prompt_tokens: number; completion_tokens: number },
) {
  const model = String(body.model ?? '');
  if (!model.startsWith('glm-')) return v4Failure(res, 1211);
  if (!Array.isArray(body.messages)) return v4Failure(res, 1214);
  const id = '8477-fake';
  if (body.stream !== true) {
    return sendJson(res, 200, {
      id,
      created: 1,
      model,
      request_id: id,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply } }],
      usage: withTotal(usage),
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
  const words = reply.split(' ');
  for (const [index, word] of words.entries()) {
    const delta = { role: 'assistant', content: index ? ` ${word}` : word };
    res.write(`data: ${JSON.stringify({ id, created: 1, model, choices: [{ index: 0, delta }] })}\n\n`);
  }
  const last = {
    id,
    created: 1,
    model,
    choices: [{ index: 0, finish_reason: 'stop', delta: { role: 'assistant', content: '' } }],
    usage: withTotal(usage),
  };
  res.write(`data: ${JSON.stringify(last)}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

function v3Answer(
  model: string,
  stream: boolean,
  body: Record<string, unknown>,
  res: http.ServerResponse,
  options: FakeZhipuOptions & { reply: string; usage: { prompt_tokens: number; completion_tokens: number } },
) {
  if (!model.startsWith('chatglm_')) return v3Failure(res, 1211);
  if (!Array.isArray(body.prompt) || 'messages' in body) return v3Failure(res, 1214);
  const taskId = '7521-task';
  if (!stream) {
    return sendJson(res, 200, {
      code: 200,
      msg: '操作成功',
      success: true,
      data: {
        request_id: 'req-v3',
        task_id: taskId,
        task_status: 'SUCCESS',
        // v3 quotes its answer as a JSON string literal.
        choices: [{ role: 'assistant', content: JSON.stringify(options.reply) }],
        usage: withTotal(options.usage),
      },
    });
  }
  if (body.incremental !== true) return v3Failure(res, 1214);
  res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
  const pieces = options.reply.split(' ').map((word, index) => (index ? ` ${word}` : word));
  for (const [index, piece] of pieces.entries()) {
    // A text with line breaks arrives as several data lines of one event.
    const data = piece
      .split('\n')
      .map((line) => `data:${line}\n`)
      .join('');
    res.write(`event:add\nid:${taskId}\n${data}\n`);
    if (index === 0 && options.streamEnd) {
      res.write(`event:${options.streamEnd}\nid:${taskId}\ndata:${MESSAGES[1301]}\n\n`);
      res.end();
      return;
    }
  }
  const meta = {
    task_status: 'SUCCESS',
    usage: withTotal(options.usage),
    task_id: taskId,
    request_id: 'req-v3',
  };
  res.write(`event:finish\nid:${taskId}\ndata:\nmeta:${JSON.stringify(meta)}\n\n`);
  res.end();
}
