/**
 * Zhipu's shapes (https://open.bigmodel.cn/dev/api). Two generations share one key format:
 * - v4 (`/api/paas/v4/…`): OpenAI-shaped chat, embeddings and images; errors as `{error: {code, message}}`.
 * - v3 (`/api/paas/v3/model-api/<model>/{invoke|sse-invoke}`): the legacy chatglm_* models, with their
 *   own body (`prompt`), a `{code, msg, success, data}` envelope and SSE events `add`, `finish` (usage
 *   in a `meta:` line), `error` and `interrupted`.
 */

export interface ZhipuMessage {
  role: string;
  content: string;
}

/** The body of a v3 invoke / sse-invoke call. */
export interface ZhipuV3Request {
  prompt: ZhipuMessage[];
  temperature?: number;
  top_p?: number;
  request_id?: string;
  /** SSE only: each `add` event carries the new text rather than the whole text so far. */
  incremental?: boolean;
}

export interface ZhipuUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** v3 answers are wrapped: `code` 200 and `success` true, or a business error code and `msg`. */
export interface ZhipuV3Response {
  code?: number;
  msg?: string;
  success?: boolean;
  data?: {
    request_id?: string;
    task_id?: string;
    task_status?: string;
    choices?: Array<Partial<ZhipuMessage>>;
    usage?: ZhipuUsage;
  };
}

/** The JSON in the `meta:` line of a v3 `finish` event. */
export interface ZhipuV3StreamMeta {
  request_id?: string;
  task_id?: string;
  task_status?: string;
  usage?: ZhipuUsage;
}

export interface ZhipuV3Event {
  /** The text of the event's `data:` lines, joined by newlines. */
  data: string;
  meta?: ZhipuV3StreamMeta;
}

/** v4 errors (any HTTP status; also inside a stream); the code is a business code such as "1002". */
export interface ZhipuV4ErrorBody {
  error?: { code?: string | number; message?: string };
}

export interface ZhipuEmbeddingRequest {
  model: string;
  input: string | string[];
  dimensions?: number;
}

export interface ZhipuEmbeddingResponse extends ZhipuV4ErrorBody {
  model?: string;
  object?: string;
  data?: Array<{ index?: number; object?: string; embedding?: number[] }>;
  usage?: ZhipuUsage;
}

export interface ZhipuImageRequest {
  model: string;
  prompt: string;
  size?: string;
  user_id?: string;
}

export const V3_SUCCESS = 200;

/** Lifetime of a signed token; Zhipu reads `exp` in milliseconds. */
export const TOKEN_LIFETIME_MS = 24 * 3600 * 1000;
