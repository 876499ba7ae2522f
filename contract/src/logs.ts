import type { LogFacts } from './log-facts';

/** A usage log row as the API returns it (`channel` is the channel_id column). */
export interface LogEntry {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  channel: number;
  request_id: string;
  elapsed_time: number;
  is_stream: boolean;
  /** What the line says, as data, for the console to say in its language; null in rows one-api wrote. */
  facts: LogFacts | null;
}

/** The filters of the log page; 0 / '' mean "any". */
export interface LogFilter {
  type: number;
  startTimestamp: number;
  endTimestamp: number;
  modelName: string;
  tokenName: string;
  username: string;
  channel: number;
}

/** One row of the usage dashboard: a day ("YYYY-MM-DD", UTC) and a model, with one-api's field names. */
export interface DashboardRow {
  Day: string;
  ModelName: string;
  RequestCount: number;
  Quota: number;
  PromptTokens: number;
  CompletionTokens: number;
}
