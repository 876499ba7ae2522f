/**
 * The channel type catalogue: every provider type a channel can have (ids 1–32 as one-api v0.6.5
 * and the console spec know them, 33–51 as one-api's later releases added them, 1001 on the gateway's
 * own: channel-types-rerank.ts), with what the server needs to relay and read balances and what
 * the console needs to show and pre-fill. The single source of truth for both sides.
 *
 * Default model lists follow one-api's newest lists (they answer GET /api/models). They add the
 * newer models to the spec's v0.6.5 lists and drop names the providers retired (chatglm_*,
 * SparkDesk*, ChatPro/ChatStd, gemini-pro-vision, llama2-*, step-1-200k).
 */

import {
  AI360_MODELS,
  ALI_MODELS,
  ANTHROPIC_MODELS,
  BAICHUAN_MODELS,
  BAIDU_MODELS,
  GEMINI_MODELS,
  GROQ_MODELS,
  LINGYIWANWU_MODELS,
  MINIMAX_MODELS,
  MISTRAL_MODELS,
  MOONSHOT_MODELS,
  OLLAMA_MODELS,
  OPENAI_MODELS,
  OPENAI_REALTIME_MODELS,
  OPENAI_VIDEO_MODELS,
  OPENROUTER_MODELS,
  PALM_MODELS,
  STEPFUN_MODELS,
  TENCENT_MODELS,
  VEO_MODELS,
  XUNFEI_MODELS,
  ZHIPU_MODELS,
} from './channel-default-models';
import {
  type BalanceSource,
  type ChannelGroup,
  type ChannelType,
  openAiLike,
  STREAM_USAGE,
} from './channel-type-model';
import { AWS_AND_VERTEX_TYPES } from './channel-types-cloud';
import { LATER_NATIVE_TYPES } from './channel-types-native';
import { LATER_OPENAI_TYPES } from './channel-types-openai';
import { RERANK_TYPES } from './channel-types-rerank';

export type * from './channel-type-model';

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
  awsClaude: 33,
  coze: 34,
  cohere: 35,
  deepSeek: 36,
  cloudflare: 37,
  deepL: 38,
  togetherAi: 39,
  doubao: 40,
  novita: 41,
  vertexAi: 42,
  proxy: 43,
  siliconFlow: 44,
  xAi: 45,
  replicate: 46,
  baiduV2: 47,
  xunfeiV2: 48,
  aliBailian: 49,
  openAiCompatible: 50,
  geminiOpenAi: 51,
  jina: 1001,
  voyage: 1002,
} as const;

export const CHANNEL_GROUP_LABELS: Readonly<Record<ChannelGroup, { en: string; zh: string }>> = {
  direct: { en: 'Direct providers', zh: '直连' },
  custom: { en: 'Custom', zh: '自定义' },
  knowledge: { en: 'Knowledge base', zh: '知识库' },
  proxy: { en: 'Proxy', zh: '代理' },
};

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

const V065_TYPES: readonly ChannelType[] = [
  openAiLike(1, 'direct', 'OpenAI', 'OpenAI', 'green', 'https://api.openai.com', {
    defaultModels: [...OPENAI_MODELS, ...OPENAI_REALTIME_MODELS, ...OPENAI_VIDEO_MODELS],
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
    defaultModels: [...OPENAI_MODELS, ...OPENAI_REALTIME_MODELS],
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
    defaultModels: [...GEMINI_MODELS, ...VEO_MODELS],
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
    tip: {
      en: 'For Qianfan Inference Service V2 models, use the Baidu Qianfan V2 type instead.',
      zh: '千帆推理服务 V2 的模型请使用“百度文心千帆 V2”类型。',
    },
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
    tip: {
      en: "For DashScope's OpenAI-compatible mode, use the Alibaba Cloud Bailian type.",
      zh: 'DashScope 的 OpenAI 兼容模式请使用“阿里云百炼”类型。',
    },
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
    tip: {
      en: "This is the WebSocket version; for Spark's HTTP API (APIPassword), use the iFlytek Spark V2 type.",
      zh: '此为 WebSocket 版本；星火的 HTTP 接口（APIPassword）请使用“讯飞星火认知 V2”类型。',
    },
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
    tip: {
      en: 'Not recommended: use the OpenAI compatible type, whose base URL is given as SDKs take it.',
      zh: '不推荐：请使用“OpenAI 兼容”类型，其 Base URL 与 SDK 的写法相同。',
    },
    openAi: STREAM_USAGE,
    rerank: 'jina',
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

/** Every type: v0.6.5's, those one-api added later, then the gateway's own (1001 on). */
export const CHANNEL_TYPES: readonly ChannelType[] = [
  ...V065_TYPES,
  ...LATER_OPENAI_TYPES,
  ...AWS_AND_VERTEX_TYPES,
  ...LATER_NATIVE_TYPES,
  ...RERANK_TYPES,
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

/** GET /api/models: each type id (as a string key) → its default models. */
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
