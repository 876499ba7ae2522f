import { GEMINI_MODELS } from './channel-default-models';
import { type ChannelType, type OpenAiDialect, openAiLike, STREAM_USAGE } from './channel-type-model';
import { SILICONFLOW_RERANK_MODELS } from './channel-types-rerank';

// Default model lists as one-api HEAD names them for these providers.

const DEEPSEEK_MODELS = ['deepseek-chat', 'deepseek-reasoner'] as const;

const TOGETHER_MODELS = [
  'meta-llama/Llama-3-70b-chat-hf',
  'deepseek-ai/deepseek-coder-33b-instruct',
  'mistralai/Mixtral-8x22B-Instruct-v0.1',
  'Qwen/Qwen1.5-72B-Chat',
] as const;

// Doubao's real model names are inference endpoint ids (ep-…); these are the families' names.
const DOUBAO_MODELS = [
  'Doubao-pro-128k',
  'Doubao-pro-32k',
  'Doubao-pro-4k',
  'Doubao-lite-128k',
  'Doubao-lite-32k',
  'Doubao-lite-4k',
  'Doubao-embedding',
] as const;

const NOVITA_MODELS = [
  'meta-llama/llama-3-8b-instruct',
  'meta-llama/llama-3-70b-instruct',
  'nousresearch/hermes-2-pro-llama-3-8b',
  'nousresearch/nous-hermes-llama2-13b',
  'mistralai/mistral-7b-instruct',
  'cognitivecomputations/dolphin-mixtral-8x22b',
  'sao10k/l3-70b-euryale-v2.1',
  'sophosympatheia/midnight-rose-70b',
  'gryphe/mythomax-l2-13b',
  'Nous-Hermes-2-Mixtral-8x7B-DPO',
  'lzlv_70b',
  'teknium/openhermes-2.5-mistral-7b',
  'microsoft/wizardlm-2-8x22b',
] as const;

const SILICONFLOW_MODELS = [
  'deepseek-ai/deepseek-llm-67b-chat',
  'Qwen/Qwen1.5-14B-Chat',
  'Qwen/Qwen1.5-7B-Chat',
  'Qwen/Qwen1.5-110B-Chat',
  'Qwen/Qwen1.5-32B-Chat',
  '01-ai/Yi-1.5-6B-Chat',
  '01-ai/Yi-1.5-9B-Chat-16K',
  '01-ai/Yi-1.5-34B-Chat-16K',
  'THUDM/chatglm3-6b',
  'deepseek-ai/DeepSeek-V2-Chat',
  'THUDM/glm-4-9b-chat',
  'Qwen/Qwen2-72B-Instruct',
  'Qwen/Qwen2-7B-Instruct',
  'Qwen/Qwen2-57B-A14B-Instruct',
  'deepseek-ai/DeepSeek-Coder-V2-Instruct',
  'Qwen/Qwen2-1.5B-Instruct',
  'internlm/internlm2_5-7b-chat',
  'BAAI/bge-large-en-v1.5',
  'BAAI/bge-large-zh-v1.5',
  'Pro/Qwen/Qwen2-7B-Instruct',
  'Pro/Qwen/Qwen2-1.5B-Instruct',
  'Pro/Qwen/Qwen1.5-7B-Chat',
  'Pro/THUDM/glm-4-9b-chat',
  'Pro/THUDM/chatglm3-6b',
  'Pro/01-ai/Yi-1.5-9B-Chat-16K',
  'Pro/01-ai/Yi-1.5-6B-Chat',
  'Pro/google/gemma-2-9b-it',
  'Pro/internlm/internlm2_5-7b-chat',
  'Pro/meta-llama/Meta-Llama-3-8B-Instruct',
  'Pro/mistralai/Mistral-7B-Instruct-v0.2',
] as const;

const XAI_MODELS = [
  'grok-2',
  'grok-vision-beta',
  'grok-2-vision-1212',
  'grok-2-vision',
  'grok-2-vision-latest',
  'grok-2-1212',
  'grok-2-latest',
  'grok-beta',
] as const;

const QIANFAN_V2_MODELS = [
  'ernie-4.0-8k-latest',
  'ernie-4.0-8k-preview',
  'ernie-4.0-8k',
  'ernie-4.0-turbo-8k-latest',
  'ernie-4.0-turbo-8k-preview',
  'ernie-4.0-turbo-8k',
  'ernie-4.0-turbo-128k',
  'ernie-3.5-8k-preview',
  'ernie-3.5-8k',
  'ernie-3.5-128k',
  'ernie-speed-8k',
  'ernie-speed-128k',
  'ernie-speed-pro-128k',
  'ernie-lite-8k',
  'ernie-lite-pro-128k',
  'ernie-tiny-8k',
  'ernie-char-8k',
  'ernie-char-fiction-8k',
  'ernie-novel-8k',
  'deepseek-v3',
  'deepseek-r1',
  'deepseek-r1-distill-qwen-32b',
  'deepseek-r1-distill-qwen-14b',
] as const;

const SPARK_V2_MODELS = ['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra'] as const;

const BAILIAN_MODELS = [
  'qwen-turbo',
  'qwen-plus',
  'qwen-long',
  'qwen-max',
  'qwen-coder-plus',
  'qwen-coder-plus-latest',
  'qwen-coder-turbo',
  'qwen-coder-turbo-latest',
  'qwen-mt-plus',
  'qwen-mt-turbo',
  'qwq-32b-preview',
  'deepseek-r1',
  'deepseek-v3',
] as const;

/** Bases that already end in the API version: the client's leading /v1 is dropped. */
const VERSIONED_BASE: OpenAiDialect = { streamUsage: true, url: { kind: 'versioned-base' } };

/**
 * OpenAI-format types one-api added after v0.6.5 (36, 39–41, 43–45, 47–51). Novita, Qianfan V2 and
 * Spark V2 are not known to take `stream_options`: their streams are counted by the gateway.
 */
export const LATER_OPENAI_TYPES: readonly ChannelType[] = [
  openAiLike(36, 'direct', 'DeepSeek', 'DeepSeek', 'dark', 'https://api.deepseek.com', {
    openAi: STREAM_USAGE,
    defaultModels: DEEPSEEK_MODELS,
    balance: {
      unit: 'cny',
      source: { kind: 'deepseek', url: '{root}/user/balance', field: 'total_balance' },
    },
  }),
  openAiLike(39, 'direct', 'together.ai', 'together.ai', 'blue', 'https://api.together.xyz', {
    openAi: STREAM_USAGE,
    rerank: 'jina',
    defaultModels: TOGETHER_MODELS,
  }),
  openAiLike(
    40,
    'direct',
    'ByteDance Volcano Engine',
    '字节火山引擎',
    'blue',
    'https://ark.cn-beijing.volces.com',
    {
      openAi: {
        streamUsage: true,
        url: {
          kind: 'per-mode',
          paths: { chat: '/api/v3/chat/completions', embeddings: '/api/v3/embeddings' },
        },
      },
      defaultModels: DOUBAO_MODELS,
      tip: {
        en: 'Formerly ByteDance Doubao. Create an inference endpoint in the Volcano Engine Ark console and use its endpoint id (e.g. ep-20240608051426-tkxvl) as the model name; model mapping can give it a friendly name such as doubao-lite-4k.',
        zh: '原字节跳动豆包。请先在火山引擎方舟控制台创建推理接入点，以接入点 ID（如 ep-20240608051426-tkxvl）作为模型名称；可用模型映射为其取一个易记的名称（如 doubao-lite-4k），并把两个名称都加入自定义模型。',
      },
    },
  ),
  openAiLike(41, 'direct', 'Novita', 'Novita', 'grape', 'https://api.novita.ai/v3/openai', {
    openAi: { url: { kind: 'chat-only', path: '/chat/completions' } },
    defaultModels: NOVITA_MODELS,
  }),
  // A transparent pass-through in one-api (/v1/oneapi/proxy/{id}/…, unbilled): kept, never relayed.
  {
    id: 43,
    group: 'custom',
    name: { en: 'Proxy', zh: 'Proxy' },
    color: 'blue',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    apiStyle: 'proxy',
    noModels: true,
    defaultModels: [],
    tip: {
      en: "one-api's unbilled pass-through channel. This gateway keeps such channels but does not serve /v1/oneapi/proxy, and never routes model calls to them.",
      zh: 'one-api 的不计费透传渠道。本网关保留此类渠道，但不提供 /v1/oneapi/proxy 路由，也不会把模型请求路由到它们。',
    },
  },
  openAiLike(44, 'direct', 'SiliconFlow', 'SiliconFlow', 'blue', 'https://api.siliconflow.cn', {
    openAi: STREAM_USAGE,
    defaultModels: [...SILICONFLOW_MODELS, ...SILICONFLOW_RERANK_MODELS],
    rerank: 'jina',
    balance: {
      unit: 'cny',
      source: { kind: 'siliconflow', url: '{root}/v1/user/info', field: 'data.totalBalance' },
    },
  }),
  openAiLike(45, 'direct', 'xAI', 'xAI', 'blue', 'https://api.x.ai', {
    openAi: STREAM_USAGE,
    defaultModels: XAI_MODELS,
  }),
  openAiLike(47, 'direct', 'Baidu Qianfan V2', '百度文心千帆 V2', 'blue', 'https://qianfan.baidubce.com', {
    openAi: { url: { kind: 'chat-only', path: '/v2/chat/completions' } },
    defaultModels: QIANFAN_V2_MODELS,
    tip: {
      en: 'Get an API key in the Baidu Cloud IAM console. This channel serves Qianfan Inference Service V2 models only.',
      zh: '请在百度智能云 IAM 控制台获取 API Key。此渠道仅支持千帆推理服务 V2 的模型。',
    },
  }),
  openAiLike(
    48,
    'direct',
    'iFlytek Spark V2',
    '讯飞星火认知 V2',
    'blue',
    'https://spark-api-open.xf-yun.com',
    {
      defaultModels: SPARK_V2_MODELS,
      tip: {
        en: "The HTTP version of iFlytek Spark's API: use the HTTP service's auth key (APIPassword) from console.xfyun.cn as the key.",
        zh: '讯飞星火 API 的 HTTP 版本：请在 console.xfyun.cn 获取 HTTP 服务的鉴权信息（APIPassword）作为密钥。',
      },
    },
  ),
  openAiLike(
    49,
    'direct',
    'Alibaba Cloud Bailian',
    '阿里云百炼',
    'orange',
    'https://dashscope.aliyuncs.com',
    {
      openAi: {
        streamUsage: true,
        url: {
          kind: 'per-mode',
          paths: {
            chat: '/compatible-mode/v1/chat/completions',
            embeddings: '/compatible-mode/v1/embeddings',
          },
        },
      },
      defaultModels: BAILIAN_MODELS,
    },
  ),
  openAiLike(50, 'custom', 'OpenAI compatible', 'OpenAI 兼容', 'lime', '', {
    baseUrlRequired: true,
    rerank: 'jina',
    openAi: VERSIONED_BASE,
    tip: {
      en: 'Any OpenAI-compatible API: the base URL includes the version, as SDKs take it (e.g. https://host/v1).',
      zh: '任意 OpenAI 兼容接口：Base URL 含版本段，与 SDK 的写法相同（如 https://host/v1）。',
    },
  }),
  openAiLike(
    51,
    'direct',
    'Gemini (OpenAI)',
    'Gemini (OpenAI)',
    'orange',
    'https://generativelanguage.googleapis.com/v1beta/openai',
    {
      openAi: VERSIONED_BASE,
      defaultModels: GEMINI_MODELS,
      tip: { en: "Gemini through Google's OpenAI-compatible endpoint.", zh: 'Gemini 的 OpenAI 兼容格式。' },
    },
  ),
];
