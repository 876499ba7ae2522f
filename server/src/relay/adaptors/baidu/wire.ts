/** Baidu Wenxin Workshop (Qianfan v1) shapes: the OAuth token exchange, ERNIE chat and embeddings. */

/** The answer of `POST /oauth/2.0/token?grant_type=client_credentials`: a token, or an OAuth error. */
export interface BaiduTokenResponse {
  access_token?: string;
  /** Seconds; Baidu issues tokens for 30 days. */
  expires_in?: number;
  error?: string;
  error_description?: string;
}

export interface BaiduMessage {
  role: string;
  content: string;
}

export interface BaiduChatRequest {
  messages: BaiduMessage[];
  system?: string;
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  penalty_score?: number;
  max_output_tokens?: number;
  stop?: string[];
  user_id?: string;
  response_format?: 'json_object' | 'text';
}

export interface BaiduEmbeddingRequest {
  input: string[];
  user_id?: string;
}

/** Baidu reports failures in the body (`error_code`, `error_msg`), mostly with HTTP 200. */
export interface BaiduError {
  error_code?: number;
  error_msg?: string;
}

export interface BaiduUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** A non-stream answer, and (with `sentence_id` and `is_end`) each stream event. */
export interface BaiduChatResponse extends BaiduError {
  id?: string;
  object?: string;
  created?: number;
  result?: string;
  is_truncated?: boolean;
  need_clear_history?: boolean;
  finish_reason?: string;
  usage?: BaiduUsage;
  sentence_id?: number;
  is_end?: boolean;
}

export interface BaiduEmbeddingResponse extends BaiduError {
  id?: string;
  object?: string;
  created?: number;
  data?: Array<{ object?: string; embedding?: number[]; index?: number }>;
  usage?: BaiduUsage;
}

/** Every Wenxin Workshop service hangs under this path of the base URL. */
export const WORKSHOP_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop';
export const TOKEN_PATH = '/oauth/2.0/token';
