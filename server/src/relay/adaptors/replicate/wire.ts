/** Replicate's predictions API (https://replicate.com/docs/reference/http) as far as the relay uses it. */

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export interface Prediction {
  id?: string;
  status?: PredictionStatus | string;
  /** Language models: the generated pieces; image models: one URL or a list of them. */
  output?: unknown;
  error?: unknown;
  urls?: { get?: string; cancel?: string; stream?: string };
  metrics?: { input_token_count?: number; output_token_count?: number };
  /** Added by the gateway for `response_format: b64_json`: the pictures downloaded, base64. */
  images_b64?: string[];
}

export interface ChatInput {
  prompt: string;
  system_prompt?: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop_sequences?: string;
  seed?: number;
}

export interface ImageInput {
  prompt: string;
  aspect_ratio?: string;
  seed?: number;
}
