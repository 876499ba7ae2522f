/**
 * Default prices: the ModelRatio and CompletionRatio option defaults and the lookup rules that turn a
 * model name into a ratio. Values follow one-api's newest built-in table so that a fresh install
 * bills exactly as one-api does.
 *
 * A ratio of 1 means $0.002 per 1K prompt tokens (1 quota per token at QuotaPerUnit 500000).
 * Completion tokens cost ratio × completion ratio.
 */

export type RatioMap = Readonly<Record<string, number>>;

/** Ratio of $1 per 1K tokens. */
export const USD = 500;
/** Ratio of ¥1 per 1K tokens: one-api divides 500 by an exchange rate of 7 in integers, giving 71. */
export const RMB = 71;
/** Ratio of $1 per 1M tokens. */
export const MILLI_USD = 0.5;

/** What an unpriced model costs, so that no model is free by accident ($0.06 per 1K tokens). */
export const UNKNOWN_MODEL_RATIO = 30;

// Twelve significant digits drop binary noise (0.12 × 71 → 8.52) while keeping every real digit.
const tidy = (ratio: number): number => Number(ratio.toPrecision(12));
const usdPer1k = (usd: number): number => tidy(usd * USD);
const usdPer1m = (usd: number): number => tidy(usd * MILLI_USD);
const cnyPer1k = (cny: number): number => tidy(cny * RMB);
const cnyPer1m = (cny: number): number => tidy((cny * RMB) / 1000);
/** Images are billed ratio × 1000 quota each, so a per-image price scales like a per-1K one. */
const usdPerImage = usdPer1k;
/**
 * Video is billed ratio × 1000 quota per second of video (see videos.ts), so a per-second price
 * scales like a per-1K-token one: $0.10 a second is a ratio of 50.
 */
const usdPerVideoSecond = usdPer1k;
/**
 * one-api ships these Groq and Stepfun prices 1000 times too low (a per-million price divided as if
 * per billion). Kept so defaults match one-api; operators should review them.
 */
const shippedTooLow = (ratio: number): number => tidy(ratio / 1000);

const OPENAI: RatioMap = {
  'gpt-4': 15,
  'gpt-4-0314': 15,
  'gpt-4-0613': 15,
  'gpt-4-32k': 30,
  'gpt-4-32k-0314': 30,
  'gpt-4-32k-0613': 30,
  'gpt-4-1106-preview': 5,
  'gpt-4-0125-preview': 5,
  'gpt-4-turbo-preview': 5,
  'gpt-4-turbo': 5,
  'gpt-4-turbo-2024-04-09': 5,
  'gpt-4o': 2.5,
  'chatgpt-4o-latest': 2.5,
  'gpt-4o-2024-05-13': 2.5,
  'gpt-4o-2024-08-06': 1.25,
  'gpt-4o-2024-11-20': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4o-mini-2024-07-18': 0.075,
  // The Realtime API's models, priced by their text input (audio: audio-ratios.ts).
  'gpt-4o-realtime-preview': usdPer1m(5),
  'gpt-4o-realtime-preview-2024-10-01': usdPer1m(5),
  'gpt-4o-realtime-preview-2024-12-17': usdPer1m(5),
  'gpt-4o-realtime-preview-2025-06-03': usdPer1m(5),
  'gpt-4o-mini-realtime-preview': usdPer1m(0.6),
  'gpt-4o-mini-realtime-preview-2024-12-17': usdPer1m(0.6),
  'gpt-realtime': usdPer1m(4),
  'gpt-realtime-2025-08-28': usdPer1m(4),
  'gpt-realtime-mini': usdPer1m(0.6),
  'gpt-realtime-mini-2025-10-06': usdPer1m(0.6),
  'gpt-4-vision-preview': 5,
  'gpt-3.5-turbo': 0.25,
  'gpt-3.5-turbo-0301': 0.75,
  'gpt-3.5-turbo-0613': 0.75,
  'gpt-3.5-turbo-16k': 1.5,
  'gpt-3.5-turbo-16k-0613': 1.5,
  'gpt-3.5-turbo-instruct': 0.75,
  'gpt-3.5-turbo-1106': 0.5,
  'gpt-3.5-turbo-0125': 0.25,
  o1: 7.5,
  'o1-2024-12-17': 7.5,
  'o1-preview': 7.5,
  'o1-preview-2024-09-12': 7.5,
  'o1-mini': 1.5,
  'o1-mini-2024-09-12': 1.5,
  'o3-mini': 1.5,
  'o3-mini-2025-01-31': 1.5,
  'davinci-002': 1,
  'babbage-002': 0.2,
  'text-ada-001': 0.2,
  'text-babbage-001': 0.25,
  'text-curie-001': 1,
  'text-davinci-002': 10,
  'text-davinci-003': 10,
  'text-davinci-edit-001': 10,
  'code-davinci-edit-001': 10,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-1106': 7.5,
  'tts-1-hd': 15,
  'tts-1-hd-1106': 15,
  davinci: 10,
  curie: 10,
  babbage: 10,
  ada: 10,
  'text-embedding-ada-002': 0.05,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'text-search-ada-doc-001': 10,
  'text-moderation-stable': 0.1,
  'text-moderation-latest': 0.1,
  'dall-e-2': usdPerImage(0.02),
  'dall-e-3': usdPerImage(0.04),
  // GPT image models are billed by tokens: text input at the model ratio, image input at its own
  // ratio (image-input-ratios.ts), output at the completion ratio.
  'gpt-image-1': usdPer1m(5),
  'gpt-image-1-mini': usdPer1m(2),
};

const ANTHROPIC: RatioMap = {
  'claude-instant-1.2': usdPer1m(0.8),
  'claude-2.0': usdPer1m(8),
  'claude-2.1': usdPer1m(8),
  'claude-3-haiku-20240307': usdPer1m(0.25),
  'claude-3-5-haiku-20241022': usdPer1m(1),
  'claude-3-5-haiku-latest': usdPer1m(1),
  'claude-3-sonnet-20240229': usdPer1m(3),
  'claude-3-5-sonnet-20240620': usdPer1m(3),
  'claude-3-5-sonnet-20241022': usdPer1m(3),
  'claude-3-5-sonnet-latest': usdPer1m(3),
  'claude-3-opus-20240229': usdPer1m(15),
};

const BAIDU: RatioMap = {
  'ERNIE-4.0-8K': cnyPer1k(0.12),
  'ERNIE-3.5-8K': cnyPer1k(0.012),
  'ERNIE-3.5-8K-0205': cnyPer1k(0.024),
  'ERNIE-3.5-8K-1222': cnyPer1k(0.012),
  'ERNIE-Bot-8K': cnyPer1k(0.024),
  'ERNIE-3.5-4K-0205': cnyPer1k(0.012),
  'ERNIE-Speed-8K': cnyPer1k(0.004),
  'ERNIE-Speed-128K': cnyPer1k(0.004),
  'ERNIE-Lite-8K-0922': cnyPer1k(0.008),
  'ERNIE-Lite-8K-0308': cnyPer1k(0.003),
  'ERNIE-Tiny-8K': cnyPer1k(0.001),
  'BLOOMZ-7B': cnyPer1k(0.004),
  'Embedding-V1': cnyPer1k(0.002),
  'bge-large-zh': cnyPer1k(0.002),
  'bge-large-en': cnyPer1k(0.002),
  'tao-8k': cnyPer1k(0.002),
};

const GOOGLE: RatioMap = {
  'gemini-pro': usdPer1m(0.25),
  'gemini-1.0-pro': usdPer1m(0.125),
  'gemini-1.5-pro': usdPer1m(1.25),
  'gemini-1.5-pro-001': usdPer1m(1.25),
  'gemini-1.5-pro-experimental': usdPer1m(1.25),
  'gemini-1.5-flash': usdPer1m(0.075),
  'gemini-1.5-flash-001': usdPer1m(0.075),
  'gemini-1.5-flash-8b': usdPer1m(0.0375),
  'gemini-2.0-flash-exp': usdPer1m(0.075),
  'gemini-2.0-flash': usdPer1m(0.15),
  'gemini-2.0-flash-001': usdPer1m(0.15),
  'gemini-2.0-flash-lite-preview-02-05': usdPer1m(0.075),
  'gemini-2.0-flash-thinking-exp-01-21': usdPer1m(0.075),
  'gemini-2.0-pro-exp-02-05': usdPer1m(1.25),
  aqa: 1,
};

const ZHIPU: RatioMap = {
  'glm-zero-preview': cnyPer1k(0.01),
  'glm-4-plus': cnyPer1k(0.05),
  'glm-4-0520': cnyPer1k(0.1),
  'glm-4-airx': cnyPer1k(0.01),
  'glm-4-air': cnyPer1k(0.0005),
  'glm-4-long': cnyPer1k(0.001),
  'glm-4-flashx': cnyPer1k(0.0001),
  'glm-4-flash': 0,
  'glm-4': cnyPer1k(0.1),
  'glm-3-turbo': cnyPer1k(0.001),
  'glm-4v-plus': cnyPer1k(0.004),
  'glm-4v': cnyPer1k(0.05),
  'glm-4v-flash': 0,
  'cogview-3-plus': cnyPer1k(0.06),
  'cogview-3': cnyPer1k(0.1),
  'cogview-3-flash': 0,
  cogviewx: cnyPer1k(0.5),
  'cogviewx-flash': 0,
  // one-api prices this under the misspelt key "charglm-4", so its listed model falls back to 30.
  'chatglm-4': cnyPer1k(0.001),
  emohaa: cnyPer1k(0.015),
  'codegeex-4': cnyPer1k(0.0001),
  'embedding-2': cnyPer1k(0.0005),
  'embedding-3': cnyPer1k(0.0005),
};

const ALI: RatioMap = {
  'qwen-turbo': cnyPer1k(0.0003),
  'qwen-turbo-latest': cnyPer1k(0.0003),
  'qwen-plus': cnyPer1k(0.0008),
  'qwen-plus-latest': cnyPer1k(0.0008),
  'qwen-max': cnyPer1k(0.0024),
  'qwen-max-latest': cnyPer1k(0.0024),
  'qwen-max-longcontext': cnyPer1k(0.0005),
  'qwen-vl-max': cnyPer1k(0.003),
  'qwen-vl-max-latest': cnyPer1k(0.003),
  'qwen-vl-plus': cnyPer1k(0.0015),
  'qwen-vl-plus-latest': cnyPer1k(0.0015),
  'qwen-vl-ocr': cnyPer1k(0.005),
  'qwen-vl-ocr-latest': cnyPer1k(0.005),
  'qwen-audio-turbo': 1.4286,
  'qwen-math-plus': cnyPer1k(0.004),
  'qwen-math-plus-latest': cnyPer1k(0.004),
  'qwen-math-turbo': cnyPer1k(0.002),
  'qwen-math-turbo-latest': cnyPer1k(0.002),
  'qwen-coder-plus': cnyPer1k(0.0035),
  'qwen-coder-plus-latest': cnyPer1k(0.0035),
  'qwen-coder-turbo': cnyPer1k(0.002),
  'qwen-coder-turbo-latest': cnyPer1k(0.002),
  'qwen-mt-plus': cnyPer1k(0.015),
  'qwen-mt-turbo': cnyPer1k(0.001),
  'qwq-32b-preview': cnyPer1k(0.002),
  'qwen2.5-72b-instruct': cnyPer1k(0.004),
  'qwen2.5-32b-instruct': cnyPer1k(0.03),
  'qwen2.5-14b-instruct': cnyPer1k(0.001),
  'qwen2.5-7b-instruct': cnyPer1k(0.0005),
  'qwen2.5-3b-instruct': cnyPer1k(0.006),
  'qwen2.5-1.5b-instruct': cnyPer1k(0.0003),
  'qwen2.5-0.5b-instruct': cnyPer1k(0.0003),
  'qwen2-72b-instruct': cnyPer1k(0.004),
  'qwen2-57b-a14b-instruct': cnyPer1k(0.0035),
  'qwen2-7b-instruct': cnyPer1k(0.001),
  'qwen2-1.5b-instruct': cnyPer1k(0.001),
  'qwen2-0.5b-instruct': cnyPer1k(0.001),
  'qwen1.5-110b-chat': cnyPer1k(0.007),
  'qwen1.5-72b-chat': cnyPer1k(0.005),
  'qwen1.5-32b-chat': cnyPer1k(0.0035),
  'qwen1.5-14b-chat': cnyPer1k(0.002),
  'qwen1.5-7b-chat': cnyPer1k(0.001),
  'qwen1.5-1.8b-chat': cnyPer1k(0.001),
  'qwen1.5-0.5b-chat': cnyPer1k(0.001),
  'qwen-72b-chat': cnyPer1k(0.02),
  'qwen-14b-chat': cnyPer1k(0.008),
  'qwen-7b-chat': cnyPer1k(0.006),
  'qwen-1.8b-chat': cnyPer1k(0.006),
  'qwen-1.8b-longcontext-chat': cnyPer1k(0.006),
  'qvq-72b-preview': cnyPer1k(0.012),
  'qwen2.5-vl-72b-instruct': cnyPer1k(0.016),
  'qwen2.5-vl-7b-instruct': cnyPer1k(0.002),
  'qwen2.5-vl-3b-instruct': cnyPer1k(0.0012),
  'qwen2-vl-7b-instruct': cnyPer1k(0.016),
  'qwen2-vl-2b-instruct': cnyPer1k(0.002),
  'qwen-vl-v1': cnyPer1k(0.002),
  'qwen-vl-chat-v1': cnyPer1k(0.002),
  'qwen2-audio-instruct': cnyPer1k(0.002),
  'qwen-audio-chat': cnyPer1k(0.002),
  'qwen2.5-math-72b-instruct': cnyPer1k(0.004),
  'qwen2.5-math-7b-instruct': cnyPer1k(0.001),
  'qwen2.5-math-1.5b-instruct': cnyPer1k(0.001),
  'qwen2-math-72b-instruct': cnyPer1k(0.004),
  'qwen2-math-7b-instruct': cnyPer1k(0.001),
  'qwen2-math-1.5b-instruct': cnyPer1k(0.001),
  'qwen2.5-coder-32b-instruct': cnyPer1k(0.002),
  'qwen2.5-coder-14b-instruct': cnyPer1k(0.002),
  'qwen2.5-coder-7b-instruct': cnyPer1k(0.001),
  'qwen2.5-coder-3b-instruct': cnyPer1k(0.001),
  'qwen2.5-coder-1.5b-instruct': cnyPer1k(0.001),
  'qwen2.5-coder-0.5b-instruct': cnyPer1k(0.001),
  'text-embedding-v1': cnyPer1k(0.0007),
  'text-embedding-v3': cnyPer1k(0.0007),
  'text-embedding-v2': cnyPer1k(0.0007),
  'text-embedding-async-v2': cnyPer1k(0.0007),
  'text-embedding-async-v1': cnyPer1k(0.0007),
  'ali-stable-diffusion-xl': 8,
  'ali-stable-diffusion-v1.5': 8,
  'wanx-v1': 8,
  'deepseek-r1': cnyPer1k(0.002),
  'deepseek-v3': cnyPer1k(0.001),
  'deepseek-r1-distill-qwen-1.5b': cnyPer1k(0.001),
  'deepseek-r1-distill-qwen-7b': cnyPer1k(0.0005),
  'deepseek-r1-distill-qwen-14b': cnyPer1k(0.001),
  'deepseek-r1-distill-qwen-32b': cnyPer1k(0.002),
  'deepseek-r1-distill-llama-8b': cnyPer1k(0.0005),
  'deepseek-r1-distill-llama-70b': cnyPer1k(0.004),
};

/** Models of the other Chinese providers (Spark, 360, Hunyuan, Moonshot, Baichuan, MiniMax, Yi, Stepfun). */
const CHINA_OTHERS: RatioMap = {
  SparkDesk: 1.2858,
  'SparkDesk-v1.1': 1.2858,
  'SparkDesk-v2.1': 1.2858,
  'SparkDesk-v3.1': 1.2858,
  'SparkDesk-v3.1-128K': 1.2858,
  'SparkDesk-v3.5': 1.2858,
  'SparkDesk-v3.5-32K': 1.2858,
  'SparkDesk-v4.0': 1.2858,
  '360GPT_S2_V9': 0.8572,
  'embedding-bert-512-v1': 0.0715,
  embedding_s1_v1: 0.0715,
  semantic_similarity_s1_v1: 0.0715,
  'hunyuan-turbo': cnyPer1k(0.015),
  'hunyuan-large': cnyPer1k(0.004),
  'hunyuan-large-longcontext': cnyPer1k(0.006),
  'hunyuan-standard': cnyPer1k(0.0008),
  'hunyuan-standard-256K': cnyPer1k(0.0005),
  'hunyuan-translation-lite': cnyPer1k(0.005),
  'hunyuan-role': cnyPer1k(0.004),
  'hunyuan-functioncall': cnyPer1k(0.004),
  'hunyuan-code': cnyPer1k(0.004),
  'hunyuan-turbo-vision': cnyPer1k(0.08),
  'hunyuan-vision': cnyPer1k(0.018),
  'hunyuan-embedding': cnyPer1k(0.0007),
  'moonshot-v1-8k': cnyPer1k(0.012),
  'moonshot-v1-32k': cnyPer1k(0.024),
  'moonshot-v1-128k': cnyPer1k(0.06),
  'Baichuan2-Turbo': cnyPer1k(0.008),
  'Baichuan2-Turbo-192k': cnyPer1k(0.016),
  'Baichuan2-53B': cnyPer1k(0.02),
  'abab6.5-chat': cnyPer1k(0.03),
  'abab6.5s-chat': cnyPer1k(0.01),
  'abab6-chat': cnyPer1k(0.1),
  'abab5.5-chat': cnyPer1k(0.015),
  'abab5.5s-chat': cnyPer1k(0.005),
  'yi-34b-chat-0205': cnyPer1m(2.5),
  'yi-34b-chat-200k': cnyPer1m(12),
  'yi-vl-plus': cnyPer1m(6),
  'step-1-8k': shippedTooLow(cnyPer1k(0.005)),
  'step-1-32k': shippedTooLow(cnyPer1k(0.015)),
  'step-1-128k': shippedTooLow(cnyPer1k(0.04)),
  'step-1-256k': shippedTooLow(cnyPer1k(0.095)),
  'step-1-flash': shippedTooLow(cnyPer1k(0.001)),
  'step-2-16k': shippedTooLow(cnyPer1k(0.038)),
  'step-1v-8k': shippedTooLow(cnyPer1k(0.005)),
  'step-1v-32k': shippedTooLow(cnyPer1k(0.015)),
};

const MISTRAL_AND_GROQ: RatioMap = {
  'open-mistral-7b': usdPer1m(0.25),
  'open-mixtral-8x7b': usdPer1m(0.7),
  'mistral-small-latest': usdPer1m(2),
  'mistral-medium-latest': usdPer1m(2.7),
  'mistral-large-latest': usdPer1m(8),
  'mistral-embed': usdPer1m(0.1),
  'gemma-7b-it': shippedTooLow(usdPer1m(0.07)),
  'gemma2-9b-it': shippedTooLow(usdPer1m(0.2)),
  'llama-3.1-70b-versatile': shippedTooLow(usdPer1m(0.59)),
  'llama-3.1-8b-instant': shippedTooLow(usdPer1m(0.05)),
  'llama-3.2-11b-text-preview': shippedTooLow(usdPer1m(0.05)),
  'llama-3.2-11b-vision-preview': shippedTooLow(usdPer1m(0.05)),
  'llama-3.2-1b-preview': shippedTooLow(usdPer1m(0.05)),
  'llama-3.2-3b-preview': shippedTooLow(usdPer1m(0.05)),
  'llama-3.2-90b-text-preview': shippedTooLow(usdPer1m(0.59)),
  'llama-guard-3-8b': shippedTooLow(usdPer1m(0.05)),
  'llama3-70b-8192': shippedTooLow(usdPer1m(0.59)),
  'llama3-8b-8192': shippedTooLow(usdPer1m(0.05)),
  'llama3-groq-70b-8192-tool-use-preview': shippedTooLow(usdPer1m(0.89)),
  'llama3-groq-8b-8192-tool-use-preview': shippedTooLow(usdPer1m(0.19)),
  'mixtral-8x7b-32768': shippedTooLow(usdPer1m(0.24)),
};

/**
 * Rerank models. Cohere bills per search unit, which the relay counts as 1,000 prompt tokens: ratio 1
 * is $2 per 1,000 searches, Cohere's price (and Cohere's on Bedrock; Amazon's reranker and Google's
 * semantic rankers are $1 per 1,000 queries). The others bill tokens, at their providers' prices
 * (SiliconFlow's rerankers, free there at the time of writing, are priced like Jina's).
 */
const RERANK: RatioMap = {
  'rerank-v3.5': 1,
  'rerank-english-v3.0': 1,
  'rerank-multilingual-v3.0': 1,
  'jina-reranker-v2-base-multilingual': usdPer1m(0.05),
  'jina-reranker-m0': usdPer1m(0.05),
  'jina-colbert-v2': usdPer1m(0.05),
  'jina-embeddings-v3': usdPer1m(0.05),
  'rerank-2.5': usdPer1m(0.05),
  'rerank-2.5-lite': usdPer1m(0.02),
  'rerank-2': usdPer1m(0.05),
  'rerank-2-lite': usdPer1m(0.02),
  'BAAI/bge-reranker-v2-m3': usdPer1m(0.05),
  'netease-youdao/bce-reranker-base_v1': usdPer1m(0.05),
  // Bedrock and Google bill per query of up to 100 documents, counted as Cohere's search units.
  'cohere.rerank-v3-5:0': 1,
  'amazon.rerank-v1:0': 0.5,
  'semantic-ranker-default@latest': 0.5,
  'semantic-ranker-default-004': 0.5,
  'semantic-ranker-fast-004': 0.5,
  'semantic-ranker-512@latest': 0.5,
};

/**
 * Providers beyond type 32 that a custom channel may still serve. A key "name(type)" applies only
 * on channels of that type (33 is AWS Bedrock).
 */
const BEYOND_32: RatioMap = {
  'llama3-8b-8192(33)': usdPer1k(0.0003),
  'llama3-70b-8192(33)': usdPer1k(0.00265),
  command: 0.5,
  'command-nightly': 0.5,
  'command-light': 0.5,
  'command-light-nightly': 0.5,
  'command-r': usdPer1m(0.5),
  'command-r-plus': usdPer1m(3),
  'deepseek-chat': usdPer1m(0.14),
  'deepseek-reasoner': usdPer1m(0.55),
  'deepl-zh': usdPer1m(25),
  'deepl-en': usdPer1m(25),
  'deepl-ja': usdPer1m(25),
  'grok-beta': usdPer1m(5),
  // Cloudflare Workers AI (37), from its per-model price list; the older beta models publish none.
  '@cf/meta/llama-3.1-8b-instruct': usdPer1m(0.282),
  '@cf/meta/llama-3-8b-instruct': usdPer1m(0.282),
  '@cf/meta/llama-2-7b-chat-fp16': usdPer1m(0.556),
  '@cf/mistral/mistral-7b-instruct-v0.1': usdPer1m(0.11),
};

/**
 * Vertex AI's own names (one-api leaves them unpriced, which bills at 30): Claude versions named with
 * `@` at Anthropic's list prices, and the Gemini versions its catalogue adds, as their siblings.
 */
const VERTEX: RatioMap = {
  'claude-3-haiku@20240307': usdPer1m(0.25),
  'claude-3-sonnet@20240229': usdPer1m(3),
  'claude-3-opus@20240229': usdPer1m(15),
  'claude-3-5-sonnet@20240620': usdPer1m(3),
  'claude-3-5-sonnet-v2@20241022': usdPer1m(3),
  'claude-3-5-haiku@20241022': usdPer1m(1),
  'gemini-pro-vision': usdPer1m(0.25),
  'gemini-exp-1206': usdPer1m(1.25),
  'gemini-1.5-pro-002': usdPer1m(1.25),
  'gemini-1.5-flash-002': usdPer1m(0.075),
};

/**
 * Replicate: image models are priced per picture (one-api's values). For the language models one-api
 * entered Replicate's dollars per 1M input tokens as if they were per 1K (1000× too high: llama-3-8b
 * at $25 per 1M); here the same figures are read as what they are, dollars per 1M input tokens. The
 * completion ratios (output ÷ input price) are one-api's.
 */
const REPLICATE: RatioMap = {
  'black-forest-labs/flux-1.1-pro': usdPerImage(0.04),
  'black-forest-labs/flux-1.1-pro-ultra': usdPerImage(0.06),
  'black-forest-labs/flux-canny-dev': usdPerImage(0.025),
  'black-forest-labs/flux-canny-pro': usdPerImage(0.05),
  'black-forest-labs/flux-depth-dev': usdPerImage(0.025),
  'black-forest-labs/flux-depth-pro': usdPerImage(0.05),
  'black-forest-labs/flux-dev': usdPerImage(0.025),
  'black-forest-labs/flux-dev-lora': usdPerImage(0.032),
  'black-forest-labs/flux-fill-dev': usdPerImage(0.04),
  'black-forest-labs/flux-fill-pro': usdPerImage(0.05),
  'black-forest-labs/flux-pro': usdPerImage(0.055),
  'black-forest-labs/flux-redux-dev': usdPerImage(0.025),
  'black-forest-labs/flux-redux-schnell': usdPerImage(0.003),
  'black-forest-labs/flux-schnell': usdPerImage(0.003),
  'black-forest-labs/flux-schnell-lora': usdPerImage(0.02),
  'ideogram-ai/ideogram-v2': usdPerImage(0.08),
  'ideogram-ai/ideogram-v2-turbo': usdPerImage(0.05),
  'recraft-ai/recraft-v3': usdPerImage(0.04),
  'recraft-ai/recraft-v3-svg': usdPerImage(0.08),
  'stability-ai/stable-diffusion-3': usdPerImage(0.035),
  'stability-ai/stable-diffusion-3.5-large': usdPerImage(0.065),
  'stability-ai/stable-diffusion-3.5-large-turbo': usdPerImage(0.04),
  'stability-ai/stable-diffusion-3.5-medium': usdPerImage(0.035),
  'ibm-granite/granite-20b-code-instruct-8k': usdPer1m(0.1),
  'ibm-granite/granite-3.0-2b-instruct': usdPer1m(0.03),
  'ibm-granite/granite-3.0-8b-instruct': usdPer1m(0.05),
  'ibm-granite/granite-8b-code-instruct-128k': usdPer1m(0.05),
  'meta/llama-2-13b': usdPer1m(0.1),
  'meta/llama-2-13b-chat': usdPer1m(0.1),
  'meta/llama-2-70b': usdPer1m(0.65),
  'meta/llama-2-70b-chat': usdPer1m(0.65),
  'meta/llama-2-7b': usdPer1m(0.05),
  'meta/llama-2-7b-chat': usdPer1m(0.05),
  'meta/meta-llama-3.1-405b-instruct': usdPer1m(9.5),
  'meta/meta-llama-3-70b': usdPer1m(0.65),
  'meta/meta-llama-3-70b-instruct': usdPer1m(0.65),
  'meta/meta-llama-3-8b': usdPer1m(0.05),
  'meta/meta-llama-3-8b-instruct': usdPer1m(0.05),
  'mistralai/mistral-7b-instruct-v0.2': usdPer1m(0.05),
  'mistralai/mistral-7b-v0.1': usdPer1m(0.05),
  'mistralai/mixtral-8x7b-instruct-v0.1': usdPer1m(0.3),
};

/**
 * OpenRouter's vendor-prefixed models, as ratios. "openrouter/auto" is left out: one-api stores a
 * negative sentinel for it, which would pay users for using it; unpriced, it costs the default 30.
 */
const OPENROUTER: RatioMap = {
  '01-ai/yi-large': 1.5,
  'aetherwiing/mn-starcannon-12b': 0.6,
  'ai21/jamba-1-5-large': 4,
  'ai21/jamba-1-5-mini': 0.2,
  'ai21/jamba-instruct': 0.35,
  'aion-labs/aion-1.0': 6,
  'aion-labs/aion-1.0-mini': 1.2,
  'aion-labs/aion-rp-llama-3.1-8b': 0.1,
  'allenai/llama-3.1-tulu-3-405b': 5,
  'alpindale/goliath-120b': 4.6875,
  'alpindale/magnum-72b': 1.125,
  'amazon/nova-lite-v1': 0.12,
  'amazon/nova-micro-v1': 0.07,
  'amazon/nova-pro-v1': 1.6,
  'anthracite-org/magnum-v2-72b': 1.5,
  'anthracite-org/magnum-v4-72b': 1.125,
  'anthropic/claude-2': 12,
  'anthropic/claude-2.0': 12,
  'anthropic/claude-2.0:beta': 12,
  'anthropic/claude-2.1': 12,
  'anthropic/claude-2.1:beta': 12,
  'anthropic/claude-2:beta': 12,
  'anthropic/claude-3-haiku': 0.625,
  'anthropic/claude-3-haiku:beta': 0.625,
  'anthropic/claude-3-opus': 37.5,
  'anthropic/claude-3-opus:beta': 37.5,
  'anthropic/claude-3-sonnet': 7.5,
  'anthropic/claude-3-sonnet:beta': 7.5,
  'anthropic/claude-3.5-haiku': 2,
  'anthropic/claude-3.5-haiku-20241022': 2,
  'anthropic/claude-3.5-haiku-20241022:beta': 2,
  'anthropic/claude-3.5-haiku:beta': 2,
  'anthropic/claude-3.5-sonnet': 7.5,
  'anthropic/claude-3.5-sonnet-20240620': 7.5,
  'anthropic/claude-3.5-sonnet-20240620:beta': 7.5,
  'anthropic/claude-3.5-sonnet:beta': 7.5,
  'cognitivecomputations/dolphin-mixtral-8x22b': 0.45,
  'cognitivecomputations/dolphin-mixtral-8x7b': 0.25,
  'cohere/command': 0.95,
  'cohere/command-r': 0.7125,
  'cohere/command-r-03-2024': 0.7125,
  'cohere/command-r-08-2024': 0.285,
  'cohere/command-r-plus': 7.125,
  'cohere/command-r-plus-04-2024': 7.125,
  'cohere/command-r-plus-08-2024': 4.75,
  'cohere/command-r7b-12-2024': 0.075,
  'databricks/dbrx-instruct': 0.6,
  'deepseek/deepseek-chat': 0.445,
  'deepseek/deepseek-chat-v2.5': 1,
  'deepseek/deepseek-chat:free': 0,
  'deepseek/deepseek-r1': 1.2,
  'deepseek/deepseek-r1-distill-llama-70b': 0.345,
  'deepseek/deepseek-r1-distill-llama-70b:free': 0,
  'deepseek/deepseek-r1-distill-llama-8b': 0.02,
  'deepseek/deepseek-r1-distill-qwen-1.5b': 0.09,
  'deepseek/deepseek-r1-distill-qwen-14b': 0.075,
  'deepseek/deepseek-r1-distill-qwen-32b': 0.09,
  'deepseek/deepseek-r1:free': 0,
  'eva-unit-01/eva-llama-3.33-70b': 3,
  'eva-unit-01/eva-qwen-2.5-32b': 1.7,
  'eva-unit-01/eva-qwen-2.5-72b': 3,
  'google/gemini-2.0-flash-001': 0.2,
  'google/gemini-2.0-flash-exp:free': 0,
  'google/gemini-2.0-flash-lite-preview-02-05:free': 0,
  'google/gemini-2.0-flash-thinking-exp-1219:free': 0,
  'google/gemini-2.0-flash-thinking-exp:free': 0,
  'google/gemini-2.0-pro-exp-02-05:free': 0,
  'google/gemini-exp-1206:free': 0,
  'google/gemini-flash-1.5': 0.15,
  'google/gemini-flash-1.5-8b': 0.075,
  'google/gemini-flash-1.5-8b-exp': 0,
  'google/gemini-pro': 0.75,
  'google/gemini-pro-1.5': 2.5,
  'google/gemini-pro-vision': 0.75,
  'google/gemma-2-27b-it': 0.135,
  'google/gemma-2-9b-it': 0.03,
  'google/gemma-2-9b-it:free': 0,
  'google/gemma-7b-it': 0.075,
  'google/learnlm-1.5-pro-experimental:free': 0,
  'google/palm-2-chat-bison': 1,
  'google/palm-2-chat-bison-32k': 1,
  'google/palm-2-codechat-bison': 1,
  'google/palm-2-codechat-bison-32k': 1,
  'gryphe/mythomax-l2-13b': 0.0325,
  'gryphe/mythomax-l2-13b:free': 0,
  'huggingfaceh4/zephyr-7b-beta:free': 0,
  'infermatic/mn-inferor-12b': 0.6,
  'inflection/inflection-3-pi': 5,
  'inflection/inflection-3-productivity': 5,
  'jondurbin/airoboros-l2-70b': 0.25,
  'liquid/lfm-3b': 0.01,
  'liquid/lfm-40b': 0.075,
  'liquid/lfm-7b': 0.005,
  'mancer/weaver': 1.125,
  'meta-llama/llama-2-13b-chat': 0.11,
  'meta-llama/llama-2-70b-chat': 0.45,
  'meta-llama/llama-3-70b-instruct': 0.2,
  'meta-llama/llama-3-8b-instruct': 0.03,
  'meta-llama/llama-3-8b-instruct:free': 0,
  'meta-llama/llama-3.1-405b': 1,
  'meta-llama/llama-3.1-405b-instruct': 0.4,
  'meta-llama/llama-3.1-70b-instruct': 0.15,
  'meta-llama/llama-3.1-8b-instruct': 0.025,
  'meta-llama/llama-3.2-11b-vision-instruct': 0.0275,
  'meta-llama/llama-3.2-11b-vision-instruct:free': 0,
  'meta-llama/llama-3.2-1b-instruct': 0.005,
  'meta-llama/llama-3.2-3b-instruct': 0.0125,
  'meta-llama/llama-3.2-90b-vision-instruct': 0.8,
  'meta-llama/llama-3.3-70b-instruct': 0.15,
  'meta-llama/llama-3.3-70b-instruct:free': 0,
  'meta-llama/llama-guard-2-8b': 0.1,
  'microsoft/phi-3-medium-128k-instruct': 0.5,
  'microsoft/phi-3-medium-128k-instruct:free': 0,
  'microsoft/phi-3-mini-128k-instruct': 0.05,
  'microsoft/phi-3-mini-128k-instruct:free': 0,
  'microsoft/phi-3.5-mini-128k-instruct': 0.05,
  'microsoft/phi-4': 0.07,
  'microsoft/wizardlm-2-7b': 0.035,
  'microsoft/wizardlm-2-8x22b': 0.25,
  'minimax/minimax-01': 0.55,
  'mistralai/codestral-2501': 0.45,
  'mistralai/codestral-mamba': 0.125,
  'mistralai/ministral-3b': 0.02,
  'mistralai/ministral-8b': 0.05,
  'mistralai/mistral-7b-instruct': 0.0275,
  'mistralai/mistral-7b-instruct-v0.1': 0.1,
  'mistralai/mistral-7b-instruct-v0.3': 0.0275,
  'mistralai/mistral-7b-instruct:free': 0,
  'mistralai/mistral-large': 3,
  'mistralai/mistral-large-2407': 3,
  'mistralai/mistral-large-2411': 3,
  'mistralai/mistral-medium': 4.05,
  'mistralai/mistral-nemo': 0.04,
  'mistralai/mistral-nemo:free': 0,
  'mistralai/mistral-small': 0.3,
  'mistralai/mistral-small-24b-instruct-2501': 0.07,
  'mistralai/mistral-small-24b-instruct-2501:free': 0,
  'mistralai/mistral-tiny': 0.125,
  'mistralai/mixtral-8x22b-instruct': 0.45,
  'mistralai/mixtral-8x7b': 0.3,
  'mistralai/mixtral-8x7b-instruct': 0.12,
  'mistralai/pixtral-12b': 0.05,
  'mistralai/pixtral-large-2411': 3,
  'neversleep/llama-3-lumimaid-70b': 2.25,
  'neversleep/llama-3-lumimaid-8b': 0.5625,
  'neversleep/llama-3-lumimaid-8b:extended': 0.5625,
  'neversleep/llama-3.1-lumimaid-70b': 2.25,
  'neversleep/llama-3.1-lumimaid-8b': 0.5625,
  'neversleep/noromaid-20b': 1.125,
  'nothingiisreal/mn-celeste-12b': 0.6,
  'nousresearch/hermes-2-pro-llama-3-8b': 0.02,
  'nousresearch/hermes-3-llama-3.1-405b': 0.4,
  'nousresearch/hermes-3-llama-3.1-70b': 0.15,
  'nousresearch/nous-hermes-2-mixtral-8x7b-dpo': 0.3,
  'nousresearch/nous-hermes-llama2-13b': 0.085,
  'nvidia/llama-3.1-nemotron-70b-instruct': 0.15,
  'nvidia/llama-3.1-nemotron-70b-instruct:free': 0,
  'openai/chatgpt-4o-latest': 7.5,
  'openai/gpt-3.5-turbo': 0.75,
  'openai/gpt-3.5-turbo-0125': 0.75,
  'openai/gpt-3.5-turbo-0613': 1,
  'openai/gpt-3.5-turbo-1106': 1,
  'openai/gpt-3.5-turbo-16k': 2,
  'openai/gpt-3.5-turbo-instruct': 1,
  'openai/gpt-4': 30,
  'openai/gpt-4-0314': 30,
  'openai/gpt-4-1106-preview': 15,
  'openai/gpt-4-32k': 60,
  'openai/gpt-4-32k-0314': 60,
  'openai/gpt-4-turbo': 15,
  'openai/gpt-4-turbo-preview': 15,
  'openai/gpt-4o': 5,
  'openai/gpt-4o-2024-05-13': 7.5,
  'openai/gpt-4o-2024-08-06': 5,
  'openai/gpt-4o-2024-11-20': 5,
  'openai/gpt-4o-mini': 0.3,
  'openai/gpt-4o-mini-2024-07-18': 0.3,
  'openai/gpt-4o:extended': 9,
  'openai/o1': 30,
  'openai/o1-mini': 2.2,
  'openai/o1-mini-2024-09-12': 2.2,
  'openai/o1-preview': 30,
  'openai/o1-preview-2024-09-12': 30,
  'openai/o3-mini': 2.2,
  'openai/o3-mini-high': 2.2,
  'openchat/openchat-7b': 0.0275,
  'openchat/openchat-7b:free': 0,
  'perplexity/llama-3.1-sonar-huge-128k-online': 2.5,
  'perplexity/llama-3.1-sonar-large-128k-chat': 0.5,
  'perplexity/llama-3.1-sonar-large-128k-online': 0.5,
  'perplexity/llama-3.1-sonar-small-128k-chat': 0.1,
  'perplexity/llama-3.1-sonar-small-128k-online': 0.1,
  'perplexity/sonar': 0.5,
  'perplexity/sonar-reasoning': 2.5,
  'pygmalionai/mythalion-13b': 0.6,
  'qwen/qvq-72b-preview': 0.25,
  'qwen/qwen-2-72b-instruct': 0.45,
  'qwen/qwen-2-7b-instruct': 0.027,
  'qwen/qwen-2-7b-instruct:free': 0,
  'qwen/qwen-2-vl-72b-instruct': 0.2,
  'qwen/qwen-2-vl-7b-instruct': 0.05,
  'qwen/qwen-2.5-72b-instruct': 0.2,
  'qwen/qwen-2.5-7b-instruct': 0.025,
  'qwen/qwen-2.5-coder-32b-instruct': 0.08,
  'qwen/qwen-max': 3.2,
  'qwen/qwen-plus': 0.6,
  'qwen/qwen-turbo': 0.1,
  'qwen/qwen-vl-plus:free': 0,
  'qwen/qwen2.5-vl-72b-instruct:free': 0,
  'qwen/qwq-32b-preview': 0.09,
  'raifle/sorcererlm-8x22b': 2.25,
  'sao10k/fimbulvetr-11b-v2': 0.6,
  'sao10k/l3-euryale-70b': 0.4,
  'sao10k/l3-lunaris-8b': 0.03,
  'sao10k/l3.1-70b-hanami-x1': 1.5,
  'sao10k/l3.1-euryale-70b': 0.4,
  'sao10k/l3.3-euryale-70b': 0.4,
  'sophosympatheia/midnight-rose-70b': 0.4,
  'sophosympatheia/rogue-rose-103b-v0.2:free': 0,
  'teknium/openhermes-2.5-mistral-7b': 0.085,
  'thedrummer/rocinante-12b': 0.25,
  'thedrummer/unslopnemo-12b': 0.25,
  'undi95/remm-slerp-l2-13b': 0.6,
  'undi95/toppy-m-7b': 0.035,
  'undi95/toppy-m-7b:free': 0,
  'x-ai/grok-2-1212': 5,
  'x-ai/grok-2-vision-1212': 5,
  'x-ai/grok-beta': 7.5,
  'x-ai/grok-vision-beta': 7.5,
  'xwin-lm/xwin-lm-70b': 1.875,
};

/**
 * Video generation (ours; one-api has no video models): OpenAI's and Google's list prices per second
 * of video at the smallest resolution; a larger resolution multiplies it (videos.ts).
 */
const VIDEO: RatioMap = {
  'sora-2': usdPerVideoSecond(0.1),
  'sora-2-pro': usdPerVideoSecond(0.3),
  'veo-3.0-generate-001': usdPerVideoSecond(0.4),
  'veo-3.0-fast-generate-001': usdPerVideoSecond(0.15),
  'veo-2.0-generate-001': usdPerVideoSecond(0.35),
};

/** The ModelRatio default: model name (or "name(channelType)") → ratio. */
export const DEFAULT_MODEL_RATIO: RatioMap = {
  ...OPENAI,
  ...RERANK,
  ...ANTHROPIC,
  ...BAIDU,
  ...GOOGLE,
  ...ZHIPU,
  ...ALI,
  ...CHINA_OTHERS,
  ...MISTRAL_AND_GROQ,
  ...BEYOND_32,
  ...VERTEX,
  ...REPLICATE,
  ...OPENROUTER,
  ...VIDEO,
};

/** The CompletionRatio default: the few models whose completion price no name rule gets right. */
export const DEFAULT_COMPLETION_RATIO: RatioMap = {
  // Ratios of output to input price, as exact fractions: $0.0035 / $0.00265 = 70/53.
  'llama3-8b-8192(33)': 2,
  'llama3-70b-8192(33)': 70 / 53,
  // Transcription is billed on its output text alone.
  'whisper-1': 0,
  // GPT image output: $40 per 1M tokens on $5 of text input; $8 on $2 for the mini.
  'gpt-image-1': 8,
  'gpt-image-1-mini': 4,
  'deepseek-chat': 2,
  'deepseek-reasoner': 219 / 55,
  '@cf/meta/llama-3.1-8b-instruct': 827 / 282,
  '@cf/meta/llama-3-8b-instruct': 827 / 282,
  '@cf/meta/llama-2-7b-chat-fp16': 6667 / 556,
  '@cf/mistral/mistral-7b-instruct-v0.1': 19 / 11,
};

/** JSON of a ratio map with sorted keys, as one-api's option defaults are written. */
export const toOptionJson = (ratios: RatioMap): string =>
  JSON.stringify(Object.fromEntries(Object.entries(ratios).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));

export const DEFAULT_MODEL_RATIO_JSON = toOptionJson(DEFAULT_MODEL_RATIO);
export const DEFAULT_COMPLETION_RATIO_JSON = toOptionJson(DEFAULT_COMPLETION_RATIO);

// ---- Lookups ------------------------------------------------------------------------------------

/** Completion ratios fixed by name, used when neither map has the model. */
const FIXED_COMPLETION_RATIO: RatioMap = {
  'llama2-70b-4096': 1.25,
  'llama3-8b-8192': 2,
  'llama3-70b-8192': 79 / 59,
  command: 2,
  'command-light': 2,
  'command-nightly': 2,
  'command-light-nightly': 2,
  'command-r': 3,
  'command-r-plus': 5,
  'grok-beta': 3,
  'ibm-granite/granite-20b-code-instruct-8k': 5,
  'ibm-granite/granite-3.0-2b-instruct': 25 / 3,
  'ibm-granite/granite-3.0-8b-instruct': 5,
  'ibm-granite/granite-8b-code-instruct-128k': 5,
  'meta/llama-2-13b': 5,
  'meta/llama-2-13b-chat': 5,
  'meta/llama-2-7b': 5,
  'meta/llama-2-7b-chat': 5,
  'meta/meta-llama-3-8b': 5,
  'meta/meta-llama-3-8b-instruct': 5,
  'meta/llama-2-70b': 55 / 13,
  'meta/llama-2-70b-chat': 55 / 13,
  'meta/meta-llama-3-70b': 55 / 13,
  'meta/meta-llama-3-70b-instruct': 55 / 13,
  'meta/meta-llama-3.1-405b-instruct': 1,
  'mistralai/mistral-7b-instruct-v0.2': 5,
  'mistralai/mistral-7b-v0.1': 5,
  'mistralai/mixtral-8x7b-instruct-v0.1': 10 / 3,
};

/** Completion ratio from the model name alone (one-api's built-in rules); 1 when no rule applies. */
export function completionRatioByRule(model: string): number {
  if (model.startsWith('gpt-3.5')) {
    if (model === 'gpt-3.5-turbo' || model.endsWith('0125')) return 3;
    if (model.endsWith('1106')) return 2;
    return 4 / 3;
  }
  if (model.startsWith('gpt-4')) {
    if (model.startsWith('gpt-4o')) return model === 'gpt-4o-2024-05-13' ? 3 : 4;
    if (model.startsWith('gpt-4-turbo') || model.endsWith('preview')) return 3;
    return 2;
  }
  if (model.startsWith('o1') || model.startsWith('gpt-realtime')) return 4;
  if (model === 'chatgpt-4o-latest') return 3;
  if (model.startsWith('claude-3')) return 5;
  if (model.startsWith('claude-')) return 3;
  if (model.startsWith('mistral-') || model.startsWith('gemini-')) return 3;
  if (model.startsWith('deepseek-')) return 2;
  return lookup(FIXED_COMPLETION_RATIO, model) ?? 1;
}

function lookup(ratios: RatioMap, key: string): number | undefined {
  return Object.hasOwn(ratios, key) ? ratios[key] : undefined;
}

/** "qwen-max-internet" is priced as "qwen-max": the suffix only turns on web search. */
function withoutInternetSuffix(model: string, prefixes: readonly string[]): string {
  const searchable = model.endsWith('-internet') && prefixes.some((prefix) => model.startsWith(prefix));
  return searchable ? model.slice(0, -'-internet'.length) : model;
}

/** one-api's key order: "name(type)" configured, then default; then the bare name configured, then default. */
export function lookupInOrder(
  model: string,
  channelType: number | undefined,
  configured: RatioMap,
  defaults: RatioMap,
): number | undefined {
  const keys = channelType === undefined ? [model] : [`${model}(${channelType})`, model];
  for (const key of keys) {
    const ratio = lookup(configured, key) ?? lookup(defaults, key);
    if (ratio !== undefined) return ratio;
  }
  return undefined;
}

/** The model's own ModelRatio, configured or default; undefined when it has none (unpriced). */
export function listedModelRatio(
  model: string,
  channelType?: number,
  configured: RatioMap = {},
): number | undefined {
  const name = withoutInternetSuffix(model, ['qwen-', 'command-']);
  return lookupInOrder(name, channelType, configured, DEFAULT_MODEL_RATIO);
}

/** The ModelRatio the relay bills with; `configured` is the parsed ModelRatio option. */
export function resolveModelRatio(model: string, channelType?: number, configured: RatioMap = {}): number {
  return listedModelRatio(model, channelType, configured) ?? UNKNOWN_MODEL_RATIO;
}

/** The CompletionRatio the relay bills with; `configured` is the parsed CompletionRatio option. */
export function resolveCompletionRatio(
  model: string,
  channelType?: number,
  configured: RatioMap = {},
): number {
  const name = withoutInternetSuffix(model, ['qwen-']);
  return (
    lookupInOrder(name, channelType, configured, DEFAULT_COMPLETION_RATIO) ?? completionRatioByRule(name)
  );
}
