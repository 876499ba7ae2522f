/** PaLM 2 chat (generativelanguage v1beta2 `generateMessage`) shapes, as far as we use them. */

/** PaLM 2 chat has one model; the requested name (PaLM-2) is a label for it. */
export const PALM_CHAT_MODEL = 'chat-bison-001';

/** Authors are free-form labels; the model answers as the one that is not the user's. */
export const USER_AUTHOR = '0';
export const MODEL_AUTHOR = '1';

export interface PalmMessage {
  author?: string;
  content: string;
}

export interface PalmChatRequest {
  prompt: { context?: string; messages: PalmMessage[] };
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
}

export interface PalmChatResponse {
  candidates?: PalmMessage[];
  messages?: PalmMessage[];
  filters?: Array<{ reason?: string; message?: string }>;
  error?: { code?: number; message?: string; status?: string };
}
