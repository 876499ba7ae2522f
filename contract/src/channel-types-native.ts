import type { ChannelType } from './channel-type-model';
import { COHERE_RERANK_MODELS } from './channel-types-rerank';

const COHERE_BASE_MODELS = [
  'command',
  'command-nightly',
  'command-light',
  'command-light-nightly',
  'command-r',
  'command-r-plus',
];

/** Cohere's models, each also with `-internet` (the same model with Cohere's web-search connector). */
const COHERE_MODELS = [...COHERE_BASE_MODELS, ...COHERE_BASE_MODELS.map((model) => `${model}-internet`)];

const CLOUDFLARE_MODELS = [
  '@cf/meta/llama-3.1-8b-instruct',
  '@cf/meta/llama-2-7b-chat-fp16',
  '@cf/meta/llama-2-7b-chat-int8',
  '@cf/mistral/mistral-7b-instruct-v0.1',
  '@hf/thebloke/deepseek-coder-6.7b-base-awq',
  '@hf/thebloke/deepseek-coder-6.7b-instruct-awq',
  '@cf/deepseek-ai/deepseek-math-7b-base',
  '@cf/deepseek-ai/deepseek-math-7b-instruct',
  '@cf/thebloke/discolm-german-7b-v1-awq',
  '@cf/tiiuae/falcon-7b-instruct',
  '@cf/google/gemma-2b-it-lora',
  '@hf/google/gemma-7b-it',
  '@cf/google/gemma-7b-it-lora',
  '@hf/nousresearch/hermes-2-pro-mistral-7b',
  '@hf/thebloke/llama-2-13b-chat-awq',
  '@cf/meta-llama/llama-2-7b-chat-hf-lora',
  '@cf/meta/llama-3-8b-instruct',
  '@hf/thebloke/llamaguard-7b-awq',
  '@hf/thebloke/mistral-7b-instruct-v0.1-awq',
  '@hf/mistralai/mistral-7b-instruct-v0.2',
  '@cf/mistral/mistral-7b-instruct-v0.2-lora',
  '@hf/thebloke/neural-chat-7b-v3-1-awq',
  '@cf/openchat/openchat-3.5-0106',
  '@hf/thebloke/openhermes-2.5-mistral-7b-awq',
  '@cf/microsoft/phi-2',
  '@cf/qwen/qwen1.5-0.5b-chat',
  '@cf/qwen/qwen1.5-1.8b-chat',
  '@cf/qwen/qwen1.5-14b-chat-awq',
  '@cf/qwen/qwen1.5-7b-chat-awq',
  '@cf/defog/sqlcoder-7b-2',
  '@hf/nexusflow/starling-lm-7b-beta',
  '@cf/tinyllama/tinyllama-1.1b-chat-v1.0',
  '@hf/thebloke/zephyr-7b-beta-awq',
];

const DEEPL_MODELS = ['deepl-zh', 'deepl-en', 'deepl-ja'];

const REPLICATE_IMAGE_MODELS = [
  'black-forest-labs/flux-1.1-pro',
  'black-forest-labs/flux-1.1-pro-ultra',
  'black-forest-labs/flux-canny-dev',
  'black-forest-labs/flux-canny-pro',
  'black-forest-labs/flux-depth-dev',
  'black-forest-labs/flux-depth-pro',
  'black-forest-labs/flux-dev',
  'black-forest-labs/flux-dev-lora',
  'black-forest-labs/flux-fill-dev',
  'black-forest-labs/flux-fill-pro',
  'black-forest-labs/flux-pro',
  'black-forest-labs/flux-redux-dev',
  'black-forest-labs/flux-redux-schnell',
  'black-forest-labs/flux-schnell',
  'black-forest-labs/flux-schnell-lora',
  'ideogram-ai/ideogram-v2',
  'ideogram-ai/ideogram-v2-turbo',
  'recraft-ai/recraft-v3',
  'recraft-ai/recraft-v3-svg',
  'stability-ai/stable-diffusion-3',
  'stability-ai/stable-diffusion-3.5-large',
  'stability-ai/stable-diffusion-3.5-large-turbo',
  'stability-ai/stable-diffusion-3.5-medium',
];

const REPLICATE_CHAT_MODELS = [
  'ibm-granite/granite-20b-code-instruct-8k',
  'ibm-granite/granite-3.0-2b-instruct',
  'ibm-granite/granite-3.0-8b-instruct',
  'ibm-granite/granite-8b-code-instruct-128k',
  'meta/llama-2-13b',
  'meta/llama-2-13b-chat',
  'meta/llama-2-70b',
  'meta/llama-2-70b-chat',
  'meta/llama-2-7b',
  'meta/llama-2-7b-chat',
  'meta/meta-llama-3.1-405b-instruct',
  'meta/meta-llama-3-70b',
  'meta/meta-llama-3-70b-instruct',
  'meta/meta-llama-3-8b',
  'meta/meta-llama-3-8b-instruct',
  'mistralai/mistral-7b-instruct-v0.2',
  'mistralai/mistral-7b-v0.1',
  'mistralai/mixtral-8x7b-instruct-v0.1',
];

/** Types one-api added after v0.6.5 with wire formats of their own (34 Coze, 35 Cohere, 37 Cloudflare, 38 DeepL, 46 Replicate). */
export const LATER_NATIVE_TYPES: readonly ChannelType[] = [
  {
    id: 34,
    group: 'direct',
    name: { en: 'Coze', zh: 'Coze' },
    color: 'blue',
    defaultBaseUrl: 'https://api.coze.com',
    apiStyle: 'coze',
    // A Coze model is a bot: its id, which the administrator adds by hand.
    defaultModels: [],
    configFields: [
      {
        key: 'user_id',
        label: { en: 'User ID', zh: '用户 ID' },
        placeholder: { en: 'User ID who generated this key', zh: '生成该密钥的用户 ID' },
        required: true,
      },
    ],
    tip: {
      en: 'For Coze, the model name is the Bot ID. You may add the prefix bot-, e.g. bot-123456. For the China site set the base URL to https://api.coze.cn.',
      zh: '对于 Coze，模型名称即 Bot ID，可添加前缀 bot-，例如 bot-123456。国内站请将代理地址设为 https://api.coze.cn。',
    },
  },
  {
    id: 35,
    group: 'direct',
    name: { en: 'Cohere', zh: 'Cohere' },
    color: 'blue',
    defaultBaseUrl: 'https://api.cohere.ai',
    apiStyle: 'cohere',
    rerank: 'cohere',
    defaultModels: [...COHERE_MODELS, ...COHERE_RERANK_MODELS],
  },
  {
    id: 37,
    group: 'direct',
    name: { en: 'Cloudflare', zh: 'Cloudflare' },
    color: 'orange',
    defaultBaseUrl: 'https://api.cloudflare.com',
    apiStyle: 'cloudflare',
    defaultModels: CLOUDFLARE_MODELS,
    configFields: [
      {
        key: 'user_id',
        label: { en: 'Account ID', zh: 'Account ID' },
        placeholder: {
          en: 'e.g. d8d7c61dbc334c32d3ced580e4bf42b4',
          zh: '例如 d8d7c61dbc334c32d3ced580e4bf42b4',
        },
        required: true,
        // A part of the upstream's path (…/accounts/{id}/ai/…).
        steers: true,
      },
    ],
    tip: {
      en: 'The key is a Cloudflare API token with Workers AI permission. An AI Gateway URL ending in /workers-ai may be set as the base URL.',
      zh: '密钥为具有 Workers AI 权限的 Cloudflare API 令牌。代理地址可填写以 /workers-ai 结尾的 AI Gateway 地址。',
    },
  },
  {
    id: 38,
    group: 'direct',
    name: { en: 'DeepL', zh: 'DeepL' },
    color: 'dark',
    defaultBaseUrl: 'https://api-free.deepl.com',
    apiStyle: 'deepl',
    defaultModels: DEEPL_MODELS,
    tip: {
      en: 'Translation as chat: the model deepl-<language> (e.g. deepl-zh) translates the last message into that language. Pro keys: set the base URL to https://api.deepl.com.',
      zh: '以对话形式翻译：模型 deepl-<语言>（如 deepl-zh）把最后一条消息翻译成该语言。Pro 密钥请将代理地址设为 https://api.deepl.com。',
    },
  },
  {
    id: 46,
    group: 'direct',
    name: { en: 'Replicate', zh: 'Replicate' },
    color: 'blue',
    defaultBaseUrl: 'https://api.replicate.com',
    apiStyle: 'replicate',
    defaultModels: [...REPLICATE_IMAGE_MODELS, ...REPLICATE_CHAT_MODELS],
  },
];
