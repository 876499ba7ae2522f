/** Anthropic Messages API shapes (https://docs.anthropic.com/en/api/messages), as far as we use them. */

export const ANTHROPIC_VERSION = '2023-06-01';

/** Used when the client sets no limit: Anthropic requires one. */
export const DEFAULT_MAX_TOKENS = 4096;

export type AnthropicRole = 'user' | 'assistant';

export type AnthropicImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string };

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
  is_error?: boolean;
}

/** Extended-thinking blocks: answered by newer models, never shown as content. */
export interface AnthropicThinkingBlock {
  type: 'thinking' | 'redacted_thinking';
  thinking?: string;
  signature?: string;
}

export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

export interface AnthropicMessage {
  role: AnthropicRole;
  content: string | AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

export interface AnthropicRequest {
  model: string;
  messages: AnthropicMessage[];
  system?: string | AnthropicTextBlock[];
  max_tokens: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  stream?: boolean;
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  metadata?: { user_id?: string };
  /** Extended thinking, e.g. `{type: "enabled", budget_tokens: 2048}`: passed on as the client sent it. */
  thinking?: Record<string, unknown>;
  /** Structured output: the answer's text is JSON matching the schema. */
  output_config?: { format: { type: 'json_schema'; schema: Record<string, unknown> } };
}

export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal';

export interface AnthropicResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<AnthropicBlock | AnthropicThinkingBlock>;
  stop_reason: AnthropicStopReason | null;
  stop_sequence?: string | null;
  usage: AnthropicUsage;
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

/** One server-sent event of a streamed message; `type` repeats the SSE event name. */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicResponse }
  | {
      type: 'content_block_start';
      index: number;
      content_block: AnthropicBlock | AnthropicThinkingBlock;
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason?: AnthropicStopReason | null; stop_sequence?: string | null };
      usage?: AnthropicUsage;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | AnthropicErrorBody;
