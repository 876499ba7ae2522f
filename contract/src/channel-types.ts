/**
 * The channel type catalogue: every provider type a channel can have (ids 1–32, as one-api v0.6.5
 * and the console spec know them), with what the server needs to relay and read balances and what
 * the console needs to show and pre-fill. The single source of truth for both sides.
 *
 * Default model lists follow one-api's newest lists (they answer GET /api/models). They add the
 * newer models to the spec's v0.6.5 lists and drop names the providers retired (chatglm_*,
 * SparkDesk*, ChatPro/ChatStd, gemini-pro-vision, llama2-*, step-1-200k).
 */

export type ChannelGroup = 'direct' | 'custom' | 'knowledge' | 'proxy';

/** Mantine palette names; one-api's semantic-ui colours are mapped to the nearest one. */
export type ChannelColor =
  | 'green'
  | 'lime'
  | 'blue'
  | 'orange'
  | 'teal'
  | 'grape'
  | 'violet'
  | 'red'
  | 'dark'
  | 'yellow'
  | 'cyan'
  | 'pink'
  | 'indigo'
  | 'gray';

/**
 * The wire format the relay speaks to the upstream (one-api's API type). Every 'openai' type shares
 * one adaptor; Azure (3) and MiniMax (27) use it with their own URL scheme, as one-api does.
 */
export type ApiStyle =
  | 'openai'
  | 'anthropic'
  | 'palm'
  | 'gemini'
  | 'baidu'
  | 'zhipu'
  | 'ali'
  | 'xunfei'
  | 'tencent'
  | 'ollama'
  | 'aiproxy-library';

/** What the channel's `other` field holds for this type (HEAD one-api also accepts it in `config`). */
export type OtherFieldKind =
  | 'azureApiVersion'
  | 'sparkVersion'
  | 'geminiVersion'
  | 'knowledgeLibraryId'
  | 'aliPlugin';

export interface OtherField {
  kind: OtherFieldKind;
  /** Pre-filled by the console when the type is chosen and the field is empty. */
  default?: string;
  /** Example value shown in an empty field. */
  placeholder?: string;
}

/**
 * How the server reads a balance from upstream. `url` may contain `{base}` (the channel's base URL,
 * else the type's default) and `{key}` (the channel key); `field` is the dotted path of the number.
 * - subscription: GET `url`, then GET `{base}/v1/dashboard/billing/usage?start_date=…&end_date=…`;
 *   balance = hard_limit_usd − total_usage / 100.
 * - credit-grants, sb-status, aiproxy-overview: one GET, balance = `field` (sb-status sends a string).
 *   aiproxy-overview authenticates with an `Api-Key` header instead of `Authorization: Bearer`.
 */
export interface BalanceSource {
  kind: 'subscription' | 'credit-grants' | 'sb-status' | 'aiproxy-overview';
  url: string;
  field: string;
}

export type BalanceUnit = 'usd' | 'cny' | 'quota';

/** A type whose balance can be read, and how the console shows the stored number. */
export interface ChannelBalance {
  unit: BalanceUnit;
  /** The stored number is divided by this before it is shown (OpenAI-SB counts in 1/10000 yuan). */
  divisor?: number;
  source: BalanceSource;
}

/**
 * How an OpenAI-compatible type's upstream differs from OpenAI's own API (apiStyle 'openai' only).
 * A provider with its own wire format has an adaptor folder instead.
 */
export interface OpenAiDialect {
  /**
   * Understands `stream_options.include_usage`, so the relay asks for a usage chunk at the end of
   * streams: OpenAI itself and proxies of it. Mistral refuses the field (422) and reports usage in
   * its last chunk anyway; Groq is left out as well.
   */
  streamUsage?: boolean;
  /**
   * Where calls go, when not base URL + the client's path: Azure's deployment URLs (named after the
   * model, `api-key` header), or one chat path for a type that serves chat completions only (MiniMax).
   */
  url?: { kind: 'azure' } | { kind: 'chat-only'; path: string };
  /** Sends the gateway's name and site as `HTTP-Referer` and `X-Title` (OpenRouter ranks apps by them). */
  appHeaders?: boolean;
}

/** How the console explains the base URL field: a proxy address unless the type needs its own. */
export type BaseUrlKind = 'proxy' | 'azure' | 'custom' | 'fastgpt';

export interface ChannelType {
  id: number;
  group: ChannelGroup;
  /** Display names without the group prefix; see channelTypeLabel for the prefixed form. */
  name: { en: string; zh: string };
  color: ChannelColor;
  /** Used when the channel's base_url is empty; '' when the type has none. */
  defaultBaseUrl: string;
  /** The channel cannot work without its own base URL (Azure resource endpoint, custom channel). */
  baseUrlRequired?: boolean;
  /** Undefined: 'proxy'. */
  baseUrlKind?: BaseUrlKind;
  /** Shown in the key field for types whose key joins several credentials. */
  keyHint?: string;
  other?: OtherField;
  apiStyle: ApiStyle;
  /** Undefined: OpenAI's API as it is (for apiStyle 'openai'). */
  openAi?: OpenAiDialect;
  /** Undefined: balance is not supported for this type. */
  balance?: ChannelBalance;
  defaultModels: readonly string[];
}

/** Named ids, so code says `ChannelTypeId.azure` rather than 3. */
export const ChannelTypeId = {
  openai: 1,
  api2d: 2,
  azure: 3,
  closeAi: 4,
  openAiSb: 5,
  openAiMax: 6,
  ohMyGpt: 7,
  custom: 8,
  aiLs: 9,
  aiProxy: 10,
  palm: 11,
  api2Gpt: 12,
  aigc2d: 13,
  anthropic: 14,
  baidu: 15,
  zhipu: 16,
  ali: 17,
  xunfei: 18,
  ai360: 19,
  openRouter: 20,
  aiProxyLibrary: 21,
  fastGpt: 22,
  tencent: 23,
  gemini: 24,
  moonshot: 25,
  baichuan: 26,
  minimax: 27,
  mistral: 28,
  groq: 29,
  ollama: 30,
  lingYiWanWu: 31,
  stepFun: 32,
} as const;

export const CHANNEL_GROUP_LABELS: Readonly<Record<ChannelGroup, { en: string; zh: string }>> = {
  direct: { en: 'Direct providers', zh: '直连' },
  custom: { en: 'Custom', zh: '自定义' },
  knowledge: { en: 'Knowledge base', zh: '知识库' },
  proxy: { en: 'Proxy', zh: '代理' },
};

// ---- Default model lists ------------------------------------------------------------------------

/** OpenAI's list, shared by every OpenAI-compatible proxy, Azure and the custom channel. */
const OPENAI_MODELS = [
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-0301',
  'gpt-3.5-turbo-0613',
  'gpt-3.5-turbo-1106',
  'gpt-3.5-turbo-0125',
  'gpt-3.5-turbo-16k',
  'gpt-3.5-turbo-16k-0613',
  'gpt-3.5-turbo-instruct',
  'gpt-4',
  'gpt-4-0314',
  'gpt-4-0613',
  'gpt-4-1106-preview',
  'gpt-4-0125-preview',
  'gpt-4-32k',
  'gpt-4-32k-0314',
  'gpt-4-32k-0613',
  'gpt-4-turbo-preview',
  'gpt-4-turbo',
  'gpt-4-turbo-2024-04-09',
  'gpt-4o',
  'gpt-4o-2024-05-13',
  'gpt-4o-2024-08-06',
  'gpt-4o-2024-11-20',
  'chatgpt-4o-latest',
  'gpt-4o-mini',
  'gpt-4o-mini-2024-07-18',
  'gpt-4o-mini-audio-preview',
  'gpt-4o-mini-audio-preview-2024-12-17',
  'gpt-4o-audio-preview',
  'gpt-4o-audio-preview-2024-12-17',
  'gpt-4o-audio-preview-2024-10-01',
  'gpt-4-vision-preview',
  'text-embedding-ada-002',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-curie-001',
  'text-babbage-001',
  'text-ada-001',
  'text-davinci-002',
  'text-davinci-003',
  'text-moderation-latest',
  'text-moderation-stable',
  'text-davinci-edit-001',
  'davinci-002',
  'babbage-002',
  'dall-e-2',
  'dall-e-3',
  'whisper-1',
  'tts-1',
  'tts-1-1106',
  'tts-1-hd',
  'tts-1-hd-1106',
  'o1',
  'o1-2024-12-17',
  'o1-preview',
  'o1-preview-2024-09-12',
  'o1-mini',
  'o1-mini-2024-09-12',
  'o3-mini',
  'o3-mini-2025-01-31',
] as const;

const ANTHROPIC_MODELS = [
  'claude-instant-1.2',
  'claude-2.0',
  'claude-2.1',
  'claude-3-haiku-20240307',
  'claude-3-5-haiku-20241022',
  'claude-3-5-haiku-latest',
  'claude-3-sonnet-20240229',
  'claude-3-opus-20240229',
  'claude-3-5-sonnet-20240620',
  'claude-3-5-sonnet-20241022',
  'claude-3-5-sonnet-latest',
] as const;

const PALM_MODELS = ['PaLM-2'] as const;

const GEMINI_MODELS = [
  'gemini-pro',
  'gemini-1.0-pro',
  'gemini-1.5-flash',
  'gemini-1.5-flash-8b',
  'gemini-1.5-pro',
  'gemini-1.5-pro-experimental',
  'text-embedding-004',
  'aqa',
  'gemini-2.0-flash',
  'gemini-2.0-flash-exp',
  'gemini-2.0-flash-lite-preview-02-05',
  'gemini-2.0-flash-thinking-exp-01-21',
  'gemini-2.0-pro-exp-02-05',
] as const;

const MISTRAL_MODELS = [
  'open-mistral-7b',
  'open-mixtral-8x7b',
  'mistral-small-latest',
  'mistral-medium-latest',
  'mistral-large-latest',
  'mistral-embed',
] as const;

const BAIDU_MODELS = [
  'ERNIE-4.0-8K',
  'ERNIE-3.5-8K',
  'ERNIE-3.5-8K-0205',
  'ERNIE-3.5-8K-1222',
  'ERNIE-Bot-8K',
  'ERNIE-3.5-4K-0205',
  'ERNIE-Speed-8K',
  'ERNIE-Speed-128K',
  'ERNIE-Lite-8K-0922',
  'ERNIE-Lite-8K-0308',
  'ERNIE-Tiny-8K',
  'BLOOMZ-7B',
  'Embedding-V1',
  'bge-large-zh',
  'bge-large-en',
  'tao-8k',
] as const;

const ALI_MODELS = [
  'qwen-turbo',
  'qwen-turbo-latest',
  'qwen-plus',
  'qwen-plus-latest',
  'qwen-max',
  'qwen-max-latest',
  'qwen-max-longcontext',
  'qwen-vl-max',
  'qwen-vl-max-latest',
  'qwen-vl-plus',
  'qwen-vl-plus-latest',
  'qwen-vl-ocr',
  'qwen-vl-ocr-latest',
  'qwen-audio-turbo',
  'qwen-math-plus',
  'qwen-math-plus-latest',
  'qwen-math-turbo',
  'qwen-math-turbo-latest',
  'qwen-coder-plus',
  'qwen-coder-plus-latest',
  'qwen-coder-turbo',
  'qwen-coder-turbo-latest',
  'qwen-mt-plus',
  'qwen-mt-turbo',
  'qwq-32b-preview',
  'qwen2.5-72b-instruct',
  'qwen2.5-32b-instruct',
  'qwen2.5-14b-instruct',
  'qwen2.5-7b-instruct',
  'qwen2.5-3b-instruct',
  'qwen2.5-1.5b-instruct',
  'qwen2.5-0.5b-instruct',
  'qwen2-72b-instruct',
  'qwen2-57b-a14b-instruct',
  'qwen2-7b-instruct',
  'qwen2-1.5b-instruct',
  'qwen2-0.5b-instruct',
  'qwen1.5-110b-chat',
  'qwen1.5-72b-chat',
  'qwen1.5-32b-chat',
  'qwen1.5-14b-chat',
  'qwen1.5-7b-chat',
  'qwen1.5-1.8b-chat',
  'qwen1.5-0.5b-chat',
  'qwen-72b-chat',
  'qwen-14b-chat',
  'qwen-7b-chat',
  'qwen-1.8b-chat',
  'qwen-1.8b-longcontext-chat',
  'qvq-72b-preview',
  'qwen2.5-vl-72b-instruct',
  'qwen2.5-vl-7b-instruct',
  'qwen2.5-vl-3b-instruct',
  'qwen2-vl-7b-instruct',
  'qwen2-vl-2b-instruct',
  'qwen-vl-v1',
  'qwen-vl-chat-v1',
  'qwen2-audio-instruct',
  'qwen-audio-chat',
  'qwen2.5-math-72b-instruct',
  'qwen2.5-math-7b-instruct',
  'qwen2.5-math-1.5b-instruct',
  'qwen2-math-72b-instruct',
  'qwen2-math-7b-instruct',
  'qwen2-math-1.5b-instruct',
  'qwen2.5-coder-32b-instruct',
  'qwen2.5-coder-14b-instruct',
  'qwen2.5-coder-7b-instruct',
  'qwen2.5-coder-3b-instruct',
  'qwen2.5-coder-1.5b-instruct',
  'qwen2.5-coder-0.5b-instruct',
  'text-embedding-v1',
  'text-embedding-v3',
  'text-embedding-v2',
  'text-embedding-async-v2',
  'text-embedding-async-v1',
  'ali-stable-diffusion-xl',
  'ali-stable-diffusion-v1.5',
  'wanx-v1',
  'deepseek-r1',
  'deepseek-v3',
  'deepseek-r1-distill-qwen-1.5b',
  'deepseek-r1-distill-qwen-7b',
  'deepseek-r1-distill-qwen-14b',
  'deepseek-r1-distill-qwen-32b',
  'deepseek-r1-distill-llama-8b',
  'deepseek-r1-distill-llama-70b',
] as const;

/** The Spark API version is read from the name: Lite v1.1, Pro v3.1, Pro-128K v3.1-128K, Max v3.5, … */
const XUNFEI_MODELS = [
  'Spark-Lite',
  'Spark-Pro',
  'Spark-Pro-128K',
  'Spark-Max',
  'Spark-Max-32K',
  'Spark-4.0-Ultra',
] as const;

const ZHIPU_MODELS = [
  'glm-zero-preview',
  'glm-4-plus',
  'glm-4-0520',
  'glm-4-airx',
  'glm-4-air',
  'glm-4-long',
  'glm-4-flashx',
  'glm-4-flash',
  'glm-4',
  'glm-3-turbo',
  'glm-4v-plus',
  'glm-4v',
  'glm-4v-flash',
  'cogview-3-plus',
  'cogview-3',
  'cogview-3-flash',
  'cogviewx',
  'cogviewx-flash',
  'chatglm-4',
  'emohaa',
  'codegeex-4',
  'embedding-2',
  'embedding-3',
] as const;

const AI360_MODELS = [
  '360GPT_S2_V9',
  'embedding-bert-512-v1',
  'embedding_s1_v1',
  'semantic_similarity_s1_v1',
] as const;

const MOONSHOT_MODELS = ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'] as const;

const TENCENT_MODELS = [
  'hunyuan-lite',
  'hunyuan-standard',
  'hunyuan-standard-256K',
  'hunyuan-pro',
  'hunyuan-vision',
  'hunyuan-embedding',
] as const;

const BAICHUAN_MODELS = ['Baichuan2-Turbo', 'Baichuan2-Turbo-192k', 'Baichuan-Text-Embedding'] as const;

const MINIMAX_MODELS = [
  'abab6.5-chat',
  'abab6.5s-chat',
  'abab6-chat',
  'abab5.5-chat',
  'abab5.5s-chat',
  'MiniMax-VL-01',
  'MiniMax-Text-01',
] as const;

const GROQ_MODELS = [
  'gemma2-9b-it',
  'llama-3.1-70b-versatile',
  'llama-3.1-8b-instant',
  'llama-3.2-11b-text-preview',
  'llama-3.2-11b-vision-preview',
  'llama-3.2-1b-preview',
  'llama-3.2-3b-preview',
  'llama-3.2-90b-text-preview',
  'llama-3.2-90b-vision-preview',
  'llama-guard-3-8b',
  'llama3-70b-8192',
  'llama3-8b-8192',
  'llama3-groq-70b-8192-tool-use-preview',
  'llama3-groq-8b-8192-tool-use-preview',
  'llava-v1.5-7b-4096-preview',
  'mixtral-8x7b-32768',
  'distil-whisper-large-v3-en',
  'whisper-large-v3',
  'whisper-large-v3-turbo',
  'deepseek-r1-distill-llama-70b-specdec',
  'deepseek-r1-distill-llama-70b',
] as const;

const OLLAMA_MODELS = [
  'codellama:7b-instruct',
  'llama2:7b',
  'llama2:latest',
  'llama3:latest',
  'phi3:latest',
  'qwen:0.5b-chat',
  'qwen:7b',
] as const;

const LINGYIWANWU_MODELS = ['yi-34b-chat-0205', 'yi-34b-chat-200k', 'yi-vl-plus'] as const;

const STEPFUN_MODELS = [
  'step-1-8k',
  'step-1-32k',
  'step-1-128k',
  'step-1-256k',
  'step-1-flash',
  'step-2-16k',
  'step-1v-8k',
  'step-1v-32k',
  'step-1x-medium',
] as const;

/** OpenRouter routes vendor-prefixed names. */
const OPENROUTER_MODELS = [
  '01-ai/yi-large',
  'aetherwiing/mn-starcannon-12b',
  'ai21/jamba-1-5-large',
  'ai21/jamba-1-5-mini',
  'ai21/jamba-instruct',
  'aion-labs/aion-1.0',
  'aion-labs/aion-1.0-mini',
  'aion-labs/aion-rp-llama-3.1-8b',
  'allenai/llama-3.1-tulu-3-405b',
  'alpindale/goliath-120b',
  'alpindale/magnum-72b',
  'amazon/nova-lite-v1',
  'amazon/nova-micro-v1',
  'amazon/nova-pro-v1',
  'anthracite-org/magnum-v2-72b',
  'anthracite-org/magnum-v4-72b',
  'anthropic/claude-2',
  'anthropic/claude-2.0',
  'anthropic/claude-2.0:beta',
  'anthropic/claude-2.1',
  'anthropic/claude-2.1:beta',
  'anthropic/claude-2:beta',
  'anthropic/claude-3-haiku',
  'anthropic/claude-3-haiku:beta',
  'anthropic/claude-3-opus',
  'anthropic/claude-3-opus:beta',
  'anthropic/claude-3-sonnet',
  'anthropic/claude-3-sonnet:beta',
  'anthropic/claude-3.5-haiku',
  'anthropic/claude-3.5-haiku-20241022',
  'anthropic/claude-3.5-haiku-20241022:beta',
  'anthropic/claude-3.5-haiku:beta',
  'anthropic/claude-3.5-sonnet',
  'anthropic/claude-3.5-sonnet-20240620',
  'anthropic/claude-3.5-sonnet-20240620:beta',
  'anthropic/claude-3.5-sonnet:beta',
  'cognitivecomputations/dolphin-mixtral-8x22b',
  'cognitivecomputations/dolphin-mixtral-8x7b',
  'cohere/command',
  'cohere/command-r',
  'cohere/command-r-03-2024',
  'cohere/command-r-08-2024',
  'cohere/command-r-plus',
  'cohere/command-r-plus-04-2024',
  'cohere/command-r-plus-08-2024',
  'cohere/command-r7b-12-2024',
  'databricks/dbrx-instruct',
  'deepseek/deepseek-chat',
  'deepseek/deepseek-chat-v2.5',
  'deepseek/deepseek-chat:free',
  'deepseek/deepseek-r1',
  'deepseek/deepseek-r1-distill-llama-70b',
  'deepseek/deepseek-r1-distill-llama-70b:free',
  'deepseek/deepseek-r1-distill-llama-8b',
  'deepseek/deepseek-r1-distill-qwen-1.5b',
  'deepseek/deepseek-r1-distill-qwen-14b',
  'deepseek/deepseek-r1-distill-qwen-32b',
  'deepseek/deepseek-r1:free',
  'eva-unit-01/eva-llama-3.33-70b',
  'eva-unit-01/eva-qwen-2.5-32b',
  'eva-unit-01/eva-qwen-2.5-72b',
  'google/gemini-2.0-flash-001',
  'google/gemini-2.0-flash-exp:free',
  'google/gemini-2.0-flash-lite-preview-02-05:free',
  'google/gemini-2.0-flash-thinking-exp-1219:free',
  'google/gemini-2.0-flash-thinking-exp:free',
  'google/gemini-2.0-pro-exp-02-05:free',
  'google/gemini-exp-1206:free',
  'google/gemini-flash-1.5',
  'google/gemini-flash-1.5-8b',
  'google/gemini-flash-1.5-8b-exp',
  'google/gemini-pro',
  'google/gemini-pro-1.5',
  'google/gemini-pro-vision',
  'google/gemma-2-27b-it',
  'google/gemma-2-9b-it',
  'google/gemma-2-9b-it:free',
  'google/gemma-7b-it',
  'google/learnlm-1.5-pro-experimental:free',
  'google/palm-2-chat-bison',
  'google/palm-2-chat-bison-32k',
  'google/palm-2-codechat-bison',
  'google/palm-2-codechat-bison-32k',
  'gryphe/mythomax-l2-13b',
  'gryphe/mythomax-l2-13b:free',
  'huggingfaceh4/zephyr-7b-beta:free',
  'infermatic/mn-inferor-12b',
  'inflection/inflection-3-pi',
  'inflection/inflection-3-productivity',
  'jondurbin/airoboros-l2-70b',
  'liquid/lfm-3b',
  'liquid/lfm-40b',
  'liquid/lfm-7b',
  'mancer/weaver',
  'meta-llama/llama-2-13b-chat',
  'meta-llama/llama-2-70b-chat',
  'meta-llama/llama-3-70b-instruct',
  'meta-llama/llama-3-8b-instruct',
  'meta-llama/llama-3-8b-instruct:free',
  'meta-llama/llama-3.1-405b',
  'meta-llama/llama-3.1-405b-instruct',
  'meta-llama/llama-3.1-70b-instruct',
  'meta-llama/llama-3.1-8b-instruct',
  'meta-llama/llama-3.2-11b-vision-instruct',
  'meta-llama/llama-3.2-11b-vision-instruct:free',
  'meta-llama/llama-3.2-1b-instruct',
  'meta-llama/llama-3.2-3b-instruct',
  'meta-llama/llama-3.2-90b-vision-instruct',
  'meta-llama/llama-3.3-70b-instruct',
  'meta-llama/llama-3.3-70b-instruct:free',
  'meta-llama/llama-guard-2-8b',
  'microsoft/phi-3-medium-128k-instruct',
  'microsoft/phi-3-medium-128k-instruct:free',
  'microsoft/phi-3-mini-128k-instruct',
  'microsoft/phi-3-mini-128k-instruct:free',
  'microsoft/phi-3.5-mini-128k-instruct',
  'microsoft/phi-4',
  'microsoft/wizardlm-2-7b',
  'microsoft/wizardlm-2-8x22b',
  'minimax/minimax-01',
  'mistralai/codestral-2501',
  'mistralai/codestral-mamba',
  'mistralai/ministral-3b',
  'mistralai/ministral-8b',
  'mistralai/mistral-7b-instruct',
  'mistralai/mistral-7b-instruct-v0.1',
  'mistralai/mistral-7b-instruct-v0.3',
  'mistralai/mistral-7b-instruct:free',
  'mistralai/mistral-large',
  'mistralai/mistral-large-2407',
  'mistralai/mistral-large-2411',
  'mistralai/mistral-medium',
  'mistralai/mistral-nemo',
  'mistralai/mistral-nemo:free',
  'mistralai/mistral-small',
  'mistralai/mistral-small-24b-instruct-2501',
  'mistralai/mistral-small-24b-instruct-2501:free',
  'mistralai/mistral-tiny',
  'mistralai/mixtral-8x22b-instruct',
  'mistralai/mixtral-8x7b',
  'mistralai/mixtral-8x7b-instruct',
  'mistralai/pixtral-12b',
  'mistralai/pixtral-large-2411',
  'neversleep/llama-3-lumimaid-70b',
  'neversleep/llama-3-lumimaid-8b',
  'neversleep/llama-3-lumimaid-8b:extended',
  'neversleep/llama-3.1-lumimaid-70b',
  'neversleep/llama-3.1-lumimaid-8b',
  'neversleep/noromaid-20b',
  'nothingiisreal/mn-celeste-12b',
  'nousresearch/hermes-2-pro-llama-3-8b',
  'nousresearch/hermes-3-llama-3.1-405b',
  'nousresearch/hermes-3-llama-3.1-70b',
  'nousresearch/nous-hermes-2-mixtral-8x7b-dpo',
  'nousresearch/nous-hermes-llama2-13b',
  'nvidia/llama-3.1-nemotron-70b-instruct',
  'nvidia/llama-3.1-nemotron-70b-instruct:free',
  'openai/chatgpt-4o-latest',
  'openai/gpt-3.5-turbo',
  'openai/gpt-3.5-turbo-0125',
  'openai/gpt-3.5-turbo-0613',
  'openai/gpt-3.5-turbo-1106',
  'openai/gpt-3.5-turbo-16k',
  'openai/gpt-3.5-turbo-instruct',
  'openai/gpt-4',
  'openai/gpt-4-0314',
  'openai/gpt-4-1106-preview',
  'openai/gpt-4-32k',
  'openai/gpt-4-32k-0314',
  'openai/gpt-4-turbo',
  'openai/gpt-4-turbo-preview',
  'openai/gpt-4o',
  'openai/gpt-4o-2024-05-13',
  'openai/gpt-4o-2024-08-06',
  'openai/gpt-4o-2024-11-20',
  'openai/gpt-4o-mini',
  'openai/gpt-4o-mini-2024-07-18',
  'openai/gpt-4o:extended',
  'openai/o1',
  'openai/o1-mini',
  'openai/o1-mini-2024-09-12',
  'openai/o1-preview',
  'openai/o1-preview-2024-09-12',
  'openai/o3-mini',
  'openai/o3-mini-high',
  'openchat/openchat-7b',
  'openchat/openchat-7b:free',
  'openrouter/auto',
  'perplexity/llama-3.1-sonar-huge-128k-online',
  'perplexity/llama-3.1-sonar-large-128k-chat',
  'perplexity/llama-3.1-sonar-large-128k-online',
  'perplexity/llama-3.1-sonar-small-128k-chat',
  'perplexity/llama-3.1-sonar-small-128k-online',
  'perplexity/sonar',
  'perplexity/sonar-reasoning',
  'pygmalionai/mythalion-13b',
  'qwen/qvq-72b-preview',
  'qwen/qwen-2-72b-instruct',
  'qwen/qwen-2-7b-instruct',
  'qwen/qwen-2-7b-instruct:free',
  'qwen/qwen-2-vl-72b-instruct',
  'qwen/qwen-2-vl-7b-instruct',
  'qwen/qwen-2.5-72b-instruct',
  'qwen/qwen-2.5-7b-instruct',
  'qwen/qwen-2.5-coder-32b-instruct',
  'qwen/qwen-max',
  'qwen/qwen-plus',
  'qwen/qwen-turbo',
  'qwen/qwen-vl-plus:free',
  'qwen/qwen2.5-vl-72b-instruct:free',
  'qwen/qwq-32b-preview',
  'raifle/sorcererlm-8x22b',
  'sao10k/fimbulvetr-11b-v2',
  'sao10k/l3-euryale-70b',
  'sao10k/l3-lunaris-8b',
  'sao10k/l3.1-70b-hanami-x1',
  'sao10k/l3.1-euryale-70b',
  'sao10k/l3.3-euryale-70b',
  'sophosympatheia/midnight-rose-70b',
  'sophosympatheia/rogue-rose-103b-v0.2:free',
  'teknium/openhermes-2.5-mistral-7b',
  'thedrummer/rocinante-12b',
  'thedrummer/unslopnemo-12b',
  'undi95/remm-slerp-l2-13b',
  'undi95/toppy-m-7b',
  'undi95/toppy-m-7b:free',
  'x-ai/grok-2-1212',
  'x-ai/grok-2-vision-1212',
  'x-ai/grok-beta',
  'x-ai/grok-vision-beta',
  'xwin-lm/xwin-lm-70b',
] as const;

// ---- Balance sources ----------------------------------------------------------------------------

const SUBSCRIPTION: BalanceSource = {
  kind: 'subscription',
  url: '{base}/v1/dashboard/billing/subscription',
  field: 'hard_limit_usd',
};

const creditGrants = (url: string, field: 'total_available' | 'total_remaining'): BalanceSource => ({
  kind: 'credit-grants',
  url,
  field,
});

// ---- The catalogue, in the order the console groups it ------------------------------------------

/** A type that speaks OpenAI's API with OpenAI's model list. */
/** OpenAI itself and proxies of it: they take `stream_options.include_usage`. */
const STREAM_USAGE: OpenAiDialect = { streamUsage: true };

const openAiLike = (
  id: number,
  group: ChannelGroup,
  en: string,
  zh: string,
  color: ChannelColor,
  defaultBaseUrl: string,
  extra: Partial<ChannelType> = {},
): ChannelType => ({
  id,
  group,
  name: { en, zh },
  color,
  defaultBaseUrl,
  apiStyle: 'openai',
  defaultModels: OPENAI_MODELS,
  ...extra,
});

export const CHANNEL_TYPES: readonly ChannelType[] = [
  openAiLike(1, 'direct', 'OpenAI', 'OpenAI', 'green', 'https://api.openai.com', {
    openAi: STREAM_USAGE,
    balance: { unit: 'usd', source: SUBSCRIPTION },
  }),
  {
    id: 14,
    group: 'direct',
    name: { en: 'Anthropic Claude', zh: 'Anthropic Claude' },
    color: 'dark',
    defaultBaseUrl: 'https://api.anthropic.com',
    apiStyle: 'anthropic',
    defaultModels: ANTHROPIC_MODELS,
  },
  openAiLike(3, 'direct', 'Azure OpenAI', 'Azure OpenAI', 'lime', '', {
    baseUrlRequired: true,
    baseUrlKind: 'azure',
    openAi: { streamUsage: true, url: { kind: 'azure' } },
    other: { kind: 'azureApiVersion', default: '2024-03-01-preview' },
  }),
  {
    id: 11,
    group: 'direct',
    name: { en: 'Google PaLM2', zh: 'Google PaLM2' },
    color: 'orange',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    apiStyle: 'palm',
    defaultModels: PALM_MODELS,
  },
  {
    id: 24,
    group: 'direct',
    name: { en: 'Google Gemini', zh: 'Google Gemini' },
    color: 'orange',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    // Empty: the server's GEMINI_VERSION (v1); gemini-1.5 and 2.0 models default to v1beta.
    other: { kind: 'geminiVersion', placeholder: 'v1' },
    apiStyle: 'gemini',
    defaultModels: GEMINI_MODELS,
  },
  openAiLike(28, 'direct', 'Mistral AI', 'Mistral AI', 'orange', 'https://api.mistral.ai', {
    defaultModels: MISTRAL_MODELS,
  }),
  {
    id: 15,
    group: 'direct',
    name: { en: 'Baidu Wenxin', zh: '百度文心千帆' },
    color: 'blue',
    defaultBaseUrl: 'https://aip.baidubce.com',
    keyHint: 'APIKey|SecretKey',
    apiStyle: 'baidu',
    defaultModels: BAIDU_MODELS,
  },
  {
    id: 17,
    group: 'direct',
    name: { en: 'Alibaba Tongyi Qianwen', zh: '阿里通义千问' },
    color: 'orange',
    defaultBaseUrl: 'https://dashscope.aliyuncs.com',
    other: { kind: 'aliPlugin' },
    apiStyle: 'ali',
    defaultModels: ALI_MODELS,
  },
  {
    id: 18,
    group: 'direct',
    name: { en: 'iFlytek Spark', zh: '讯飞星火认知' },
    color: 'blue',
    // The Spark WebSocket host is fixed; the base URL is not used.
    defaultBaseUrl: '',
    keyHint: 'APPID|APISecret|APIKey',
    other: { kind: 'sparkVersion', default: 'v2.1' },
    apiStyle: 'xunfei',
    defaultModels: XUNFEI_MODELS,
  },
  {
    id: 16,
    group: 'direct',
    name: { en: 'Zhipu ChatGLM', zh: '智谱 ChatGLM' },
    color: 'violet',
    defaultBaseUrl: 'https://open.bigmodel.cn',
    apiStyle: 'zhipu',
    defaultModels: ZHIPU_MODELS,
  },
  openAiLike(19, 'direct', '360 Zhinao', '360 智脑', 'blue', 'https://ai.360.cn', {
    defaultModels: AI360_MODELS,
  }),
  openAiLike(25, 'direct', 'Moonshot AI', 'Moonshot AI', 'dark', 'https://api.moonshot.cn', {
    defaultModels: MOONSHOT_MODELS,
  }),
  {
    id: 23,
    group: 'direct',
    name: { en: 'Tencent Hunyuan', zh: '腾讯混元' },
    color: 'teal',
    defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
    keyHint: 'AppId|SecretId|SecretKey',
    apiStyle: 'tencent',
    defaultModels: TENCENT_MODELS,
  },
  openAiLike(26, 'direct', 'Baichuan', '百川大模型', 'orange', 'https://api.baichuan-ai.com', {
    defaultModels: BAICHUAN_MODELS,
  }),
  openAiLike(27, 'direct', 'MiniMax', 'MiniMax', 'red', 'https://api.minimax.chat', {
    openAi: { url: { kind: 'chat-only', path: '/v1/text/chatcompletion_v2' } },
    defaultModels: MINIMAX_MODELS,
  }),
  openAiLike(29, 'direct', 'Groq', 'Groq', 'orange', 'https://api.groq.com/openai', {
    defaultModels: GROQ_MODELS,
  }),
  {
    id: 30,
    group: 'direct',
    name: { en: 'Ollama', zh: 'Ollama' },
    color: 'dark',
    defaultBaseUrl: 'http://localhost:11434',
    apiStyle: 'ollama',
    defaultModels: OLLAMA_MODELS,
  },
  openAiLike(31, 'direct', 'Lingyi Wanwu (01.AI)', '零一万物', 'green', 'https://api.lingyiwanwu.com', {
    defaultModels: LINGYIWANWU_MODELS,
  }),
  openAiLike(32, 'direct', 'Stepfun', '阶跃星辰', 'blue', 'https://api.stepfun.com', {
    defaultModels: STEPFUN_MODELS,
  }),

  openAiLike(8, 'custom', 'Custom channel', '自定义渠道', 'pink', '', {
    baseUrlRequired: true,
    baseUrlKind: 'custom',
    openAi: STREAM_USAGE,
    balance: { unit: 'usd', source: SUBSCRIPTION },
  }),

  // FastGPT keys are sent whole; the hint only tells people which key to paste.
  openAiLike(22, 'knowledge', 'FastGPT', 'FastGPT', 'blue', 'https://fastgpt.run/api/openapi', {
    baseUrlKind: 'fastgpt',
    keyHint: 'APIKey-AppId',
  }),
  openAiLike(21, 'knowledge', 'AI Proxy', 'AI Proxy', 'grape', 'https://api.aiproxy.io', {
    apiStyle: 'aiproxy-library',
    other: { kind: 'knowledgeLibraryId' },
  }),

  // one-api HEAD also reads OpenRouter credits; the spec shows 'not supported' for it, so we do too.
  openAiLike(20, 'proxy', 'OpenRouter', 'OpenRouter', 'dark', 'https://openrouter.ai/api', {
    openAi: { streamUsage: true, appHeaders: true },
    defaultModels: OPENROUTER_MODELS,
  }),
  openAiLike(2, 'proxy', 'API2D', 'API2D', 'blue', 'https://oa.api2d.net', { openAi: STREAM_USAGE }),
  // Semantic UI's brown has no Mantine counterpart; orange is the nearest hue.
  openAiLike(5, 'proxy', 'OpenAI-SB', 'OpenAI-SB', 'orange', 'https://api.openai-sb.com', {
    openAi: STREAM_USAGE,
    balance: {
      unit: 'cny',
      divisor: 10000,
      source: {
        kind: 'sb-status',
        url: 'https://api.openai-sb.com/sb-api/user/status?api_key={key}',
        field: 'data.credit',
      },
    },
  }),
  openAiLike(7, 'proxy', 'OhMyGPT', 'OhMyGPT', 'grape', 'https://api.ohmygpt.com', { openAi: STREAM_USAGE }),
  openAiLike(10, 'proxy', 'AI Proxy', 'AI Proxy', 'grape', 'https://api.aiproxy.io', {
    openAi: STREAM_USAGE,
    balance: {
      unit: 'quota',
      source: {
        kind: 'aiproxy-overview',
        url: 'https://aiproxy.io/api/report/getUserOverview',
        field: 'data.totalPoints',
      },
    },
  }),
  openAiLike(4, 'proxy', 'CloseAI', 'CloseAI', 'teal', 'https://api.closeai-proxy.xyz', {
    openAi: STREAM_USAGE,
    balance: {
      unit: 'cny',
      source: creditGrants('{base}/dashboard/billing/credit_grants', 'total_available'),
    },
  }),
  openAiLike(6, 'proxy', 'OpenAI Max', 'OpenAI Max', 'violet', 'https://api.openaimax.com', {
    openAi: STREAM_USAGE,
  }),
  openAiLike(9, 'proxy', 'AI.LS', 'AI.LS', 'yellow', 'https://api.caipacity.com', { openAi: STREAM_USAGE }),
  openAiLike(12, 'proxy', 'API2GPT', 'API2GPT', 'blue', 'https://api.api2gpt.com', {
    openAi: STREAM_USAGE,
    balance: {
      unit: 'cny',
      source: creditGrants('https://api.api2gpt.com/dashboard/billing/credit_grants', 'total_remaining'),
    },
  }),
  openAiLike(13, 'proxy', 'AIGC2D', 'AIGC2D', 'grape', 'https://api.aigc2d.com', {
    openAi: STREAM_USAGE,
    balance: {
      unit: 'quota',
      source: creditGrants('https://api.aigc2d.com/dashboard/billing/credit_grants', 'total_available'),
    },
  }),
];

// ---- Lookups ------------------------------------------------------------------------------------

const BY_ID: ReadonlyMap<number, ChannelType> = new Map(CHANNEL_TYPES.map((type) => [type.id, type]));

export function channelTypeById(id: number): ChannelType | undefined {
  return BY_ID.get(id);
}

/** "OpenAI", or with the group for knowledge bases and proxies: "Proxy: AI Proxy" / "代理：AI Proxy". */
export function channelTypeLabel(type: ChannelType, lang: 'en' | 'zh'): string {
  const name = type.name[lang];
  if (type.group !== 'knowledge' && type.group !== 'proxy') return name;
  const prefix = CHANNEL_GROUP_LABELS[type.group][lang];
  return lang === 'zh' ? `${prefix}：${name}` : `${prefix}: ${name}`;
}

/** GET /api/models: each type id (as a string key, 1..32) → its default models. */
export function modelsByChannelType(): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const type of [...CHANNEL_TYPES].sort((a, b) => a.id - b.id)) {
    result[String(type.id)] = [...type.defaultModels];
  }
  return result;
}

/** GET /api/channel/models: every default model of every type, once, sorted. */
export function allModelNames(): string[] {
  const names = new Set(CHANNEL_TYPES.flatMap((type) => type.defaultModels));
  return [...names].sort();
}
