/** Gemini API shapes (https://ai.google.dev/api/generate-content), as far as we use them. */

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  /** Set on the model's thinking parts, which are not part of the answer. */
  thought?: boolean;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType: string; fileUri: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

export type GeminiRole = 'user' | 'model';

export interface GeminiContent {
  role?: GeminiRole;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
}

export interface GeminiSafetySetting {
  category: string;
  threshold: string;
}

export interface GeminiChatRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  safetySettings: GeminiSafetySetting[];
  generationConfig?: GeminiGenerationConfig;
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: GeminiToolConfig;
}

/** Tokens of one modality (TEXT, IMAGE, AUDIO, VIDEO, DOCUMENT). */
export interface GeminiModalityTokenCount {
  modality?: string;
  tokenCount?: number;
}

/**
 * promptTokenCount includes cachedContentTokenCount; thoughtsTokenCount is apart from
 * candidatesTokenCount. The details split the prompt and the candidates by modality.
 */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  totalTokenCount?: number;
  promptTokensDetails?: GeminiModalityTokenCount[];
  candidatesTokensDetails?: GeminiModalityTokenCount[];
}

export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  index?: number;
}

export interface GeminiErrorDetail {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ reason?: string }>;
}

/** A whole answer, and also each event of a stream (`alt=sse`), whose usage is a running total. */
export interface GeminiChatResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  responseId?: string;
  error?: GeminiErrorDetail;
}

export interface GeminiEmbedRequest {
  requests: Array<{ model: string; content: GeminiContent; outputDimensionality?: number }>;
}

export interface GeminiEmbedResponse {
  embeddings?: Array<{ values?: number[] }>;
  error?: GeminiErrorDetail;
}
