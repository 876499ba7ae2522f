/**
 * Tokens of one call, in OpenAI's convention: `prompt_tokens` counts every input token (cached ones
 * included), `completion_tokens` every output token (reasoning included). The optional parts say how
 * many of those were cache reads, cache writes, reasoning, audio or images, for providers that
 * report them.
 */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Of prompt_tokens: read from the provider's prompt cache. */
  cached_tokens?: number;
  /** Of prompt_tokens: written to the provider's prompt cache (Anthropic's cache_creation_input_tokens). */
  cache_write_tokens?: number;
  /** Of completion_tokens: spent on reasoning (thinking). */
  reasoning_tokens?: number;
  /** Of prompt_tokens: audio input. */
  prompt_audio_tokens?: number;
  /** Of cached_tokens: audio input read from the cache (the Realtime API reports it). */
  cached_audio_tokens?: number;
  /** Of prompt_tokens: image input. */
  prompt_image_tokens?: number;
  /** Of completion_tokens: audio output. */
  completion_audio_tokens?: number;
}
