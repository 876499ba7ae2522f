/** Tencent Cloud API 3.0 shapes of Hunyuan (version 2023-09-01): ChatCompletions and GetEmbedding. */

export interface HunyuanMessage {
  Role: string;
  Content: string;
}

export interface HunyuanChatRequest {
  Model: string;
  Messages: HunyuanMessage[];
  Stream: boolean;
  TopP?: number;
  Temperature?: number;
}

export interface HunyuanEmbeddingRequest {
  Input?: string;
  InputList?: string[];
}

export interface HunyuanError {
  Code?: string;
  Message?: string;
}

export interface HunyuanUsage {
  PromptTokens?: number;
  CompletionTokens?: number;
  TotalTokens?: number;
}

export interface HunyuanChoice {
  FinishReason?: string;
  Message?: Partial<HunyuanMessage>;
  Delta?: Partial<HunyuanMessage>;
}

/** The body of a non-stream answer is `{Response: …}`; each stream event is the inner object itself. */
export interface HunyuanChatResponse {
  Id?: string;
  Choices?: HunyuanChoice[];
  Usage?: HunyuanUsage;
  Error?: HunyuanError;
  /** A failure in the middle of a stream. */
  ErrorMsg?: { Code?: number; Msg?: string };
  RequestId?: string;
}

export interface HunyuanEmbeddingResponse {
  Data?: Array<{ Embedding?: number[]; Index?: number }>;
  Usage?: HunyuanUsage;
  Error?: HunyuanError;
  RequestId?: string;
}

export const API_VERSION = '2023-09-01';
export const SERVICE = 'hunyuan';
