/** DashScope's native shapes: text generation (`result_format: "message"`) and text embedding. */

export const GENERATION_PATH = '/api/v1/services/aigc/text-generation/generation';
export const EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding';

/** A model name ending so asks DashScope to search the web first; the suffix is not a real model. */
export const SEARCH_SUFFIX = '-internet';

export interface DashScopeToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface DashScopeMessage {
  role: string;
  content: string;
  name?: string;
  tool_calls?: unknown[];
  tool_call_id?: string;
}

export interface DashScopeParameters {
  result_format: 'message';
  incremental_output?: boolean;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  seed?: number;
  stop?: string | string[];
  presence_penalty?: number;
  repetition_penalty?: number;
  enable_search?: boolean;
  tools?: unknown[];
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  response_format?: unknown;
}

export interface DashScopeChatRequest {
  model: string;
  input: { messages: DashScopeMessage[] };
  parameters: DashScopeParameters;
}

export interface DashScopeEmbeddingRequest {
  model: string;
  input: { texts: string[] };
  parameters?: { dimension?: number; text_type?: string };
}

/** Every failure, whether the whole body or one stream event: `{code, message, request_id}`. */
export interface DashScopeError {
  code?: string;
  message?: string;
  request_id?: string;
}

export interface DashScopeUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
}

export interface DashScopeChoice {
  /** The string "null" while a stream is still going. */
  finish_reason?: string | null;
  message?: {
    role?: string;
    content?: string | null;
    tool_calls?: DashScopeToolCall[];
  };
}

/** A non-stream answer, and each stream event (a delta with incremental output; usage a running total). */
export interface DashScopeChatResponse extends DashScopeError {
  output?: { choices?: DashScopeChoice[]; text?: string; finish_reason?: string };
  usage?: DashScopeUsage;
}

export interface DashScopeEmbeddingResponse extends DashScopeError {
  output?: { embeddings?: Array<{ text_index?: number; embedding?: number[] }> };
  usage?: DashScopeUsage;
}
