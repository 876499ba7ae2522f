/**
 * Which models answer a chat completion. Channel tests send a short chat request, so they pick chat
 * models only (the spec: "tests chat models only"); a channel listing an embedding model first must
 * not be tested — and disabled — with a chat call to that model. The console and the server share this.
 */
// Images: dall-e-3, gpt-image-1, stable diffusion, wanx, cogview, flux, imagen, midjourney.
const IMAGE_PATTERNS: readonly RegExp[] = [
  /dall-e/i,
  /^gpt-image/i,
  /stable-diffusion/i,
  /^wanx/i,
  /^cogview/i,
  /(^|\/)flux/i,
  /^ideogram-ai\//i,
  /^recraft-ai\//i,
  /^imagen/i,
  /midjourney/i,
];

/** GPT image models are billed by the tokens they report, the DALL·E ones per picture. */
export const isTokenPricedImageModel = (model: string): boolean => /^(gpt-image|chatgpt-image)/.test(model);

/** True when the name says the model makes pictures. */
export const isImageModel = (model: string): boolean =>
  IMAGE_PATTERNS.some((pattern) => pattern.test(model.trim()));

const NOT_CHAT_PATTERNS: readonly RegExp[] = [
  // Embeddings: text-embedding-3-small, mistral-embed, Embedding-V1, embedding-2, hunyuan-embedding, …
  /embed/i,
  // Baidu's embedding models and 360's similarity model.
  /^bge-/i,
  /^tao-8k$/i,
  /semantic_similarity/i,
  // Moderation: text-moderation-latest, omni-moderation-latest.
  /moderation/i,
  // Speech and transcription: tts-1, tts-1-hd, gpt-4o-mini-tts, whisper-1, whisper-large-v3, gpt-4o-transcribe.
  /(^|[-_])tts([-_]|$)/i,
  /whisper/i,
  /transcribe/i,
  ...IMAGE_PATTERNS,
  // Rerankers (jina-colbert-v2 ranks too) and realtime (WebSocket) models.
  /rerank/i,
  /colbert/i,
  /realtime/i,
  // Completion-only models: they refuse /v1/chat/completions.
  /^text-(davinci|curie|babbage|ada)-/i,
  /^(davinci|babbage)-00\d$/i,
  /^code-(davinci|cushman)-/i,
  /^gpt-3\.5-turbo-instruct/i,
];

/** True unless the name says embedding, moderation, speech, transcription, image, rerank, realtime or completion-only. */
export function isChatModel(model: string): boolean {
  const name = model.trim();
  return name !== '' && !NOT_CHAT_PATTERNS.some((pattern) => pattern.test(name));
}
