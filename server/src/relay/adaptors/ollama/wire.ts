/** Ollama's native wire shapes (https://github.com/ollama/ollama/blob/main/docs/api.md). */

export interface OllamaToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export interface OllamaMessage {
  role: string;
  content: string;
  images?: string[];
  tool_calls?: OllamaToolCall[];
}

export interface OllamaOptions {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  num_predict?: number;
  stop?: string[];
}

export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  stream: boolean;
  options?: OllamaOptions;
  tools?: unknown[];
  format?: unknown;
}

/** One answer (non-stream) or one line of a stream; the last line has `done` and the counts. */
export interface OllamaChatResponse {
  model?: string;
  message?: Partial<OllamaMessage>;
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

export interface OllamaEmbedRequest {
  model: string;
  input: string[];
  options?: OllamaOptions;
}

export interface OllamaEmbedResponse {
  model?: string;
  embeddings?: number[][];
  prompt_eval_count?: number;
  error?: string;
}
