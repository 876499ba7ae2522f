/** Cohere's v1 Chat API (https://docs.cohere.com/v1/reference/chat) as far as the relay uses it. */

export interface CohereHistoryMessage {
  role: 'USER' | 'CHATBOT';
  message: string;
}

export interface CohereChatRequest {
  message: string;
  model: string;
  stream: boolean;
  preamble?: string;
  chat_history?: CohereHistoryMessage[];
  connectors?: Array<{ id: string }>;
  max_tokens?: number;
  temperature?: number;
  p?: number;
  k?: number;
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  stop_sequences?: string[];
}

export interface CohereTokens {
  input_tokens?: number;
  output_tokens?: number;
}

export interface CohereMeta {
  /** What Cohere charges for. */
  billed_units?: CohereTokens;
  /** Every token the model saw, Cohere's own prompt template included. */
  tokens?: CohereTokens;
}

export interface CohereChatResponse {
  response_id?: string;
  text?: string;
  generation_id?: string;
  finish_reason?: string;
  meta?: CohereMeta;
  message?: string;
}

/** One line of a stream: stream-start, text-generation, …, stream-end (with the whole response). */
export interface CohereStreamEvent {
  event_type?: string;
  is_finished?: boolean;
  text?: string;
  finish_reason?: string;
  response?: CohereChatResponse;
}
