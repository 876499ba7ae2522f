/** iFlytek Spark's WebSocket frames (https://www.xfyun.cn/doc/spark/Web.html). */

export interface SparkMessage {
  role: string;
  content: string;
}

export interface SparkFunction {
  name: string;
  description?: string;
  parameters?: unknown;
}

export interface SparkRequest {
  header: { app_id: string; uid?: string };
  parameter: {
    chat: { domain: string; temperature?: number; top_k?: number; max_tokens?: number };
  };
  payload: {
    message: { text: SparkMessage[] };
    functions?: { text: SparkFunction[] };
  };
}

export interface SparkTextItem {
  content?: string;
  role?: string;
  index?: number;
  function_call?: { name?: string; arguments?: string };
}

export interface SparkUsage {
  question_tokens?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** One answer frame; `header.status` 2 marks the last one, which alone carries usage. */
export interface SparkFrame {
  header?: { code?: number; message?: string; sid?: string; status?: number };
  payload?: {
    choices?: { status?: number; seq?: number; text?: SparkTextItem[] };
    usage?: { text?: SparkUsage };
  };
}

export const LAST_FRAME = 2;
