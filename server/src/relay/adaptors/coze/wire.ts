/** Coze's chat API v2 (POST /open_api/v2/chat) as far as the relay uses it. */

export interface CozeHistoryMessage {
  role: 'user' | 'assistant';
  /** Set on an assistant turn: what kind of message it was (`answer`). */
  type?: string;
  content: string;
  content_type: 'text';
}

export interface CozeChatRequest {
  bot_id: string;
  user: string;
  query: string;
  chat_history: CozeHistoryMessage[];
  stream: boolean;
}

/** One message the bot produced; only `answer` messages are the reply (others: follow_up, verbose, function calls). */
export interface CozeMessage {
  role?: string;
  type?: string;
  content?: string;
  content_type?: string;
}

export interface CozeChatResponse {
  conversation_id?: string;
  messages?: CozeMessage[];
  /** 0 on success. */
  code?: number;
  msg?: string;
}

/** One stream event (`data:{json}`): message, done or error. */
export interface CozeStreamEvent {
  event?: string;
  message?: CozeMessage;
  is_finish?: boolean;
  index?: number;
  conversation_id?: string;
  error_information?: { code?: number; msg?: string };
}
