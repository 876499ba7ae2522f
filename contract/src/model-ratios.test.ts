import { describe, expect, it } from 'vitest';
import { allModelNames, CHANNEL_TYPES } from './channel-types';
import {
  completionRatioByRule,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_COMPLETION_RATIO_JSON,
  DEFAULT_MODEL_RATIO,
  DEFAULT_MODEL_RATIO_JSON,
  MILLI_USD,
  RMB,
  resolveCompletionRatio,
  resolveModelRatio,
  UNKNOWN_MODEL_RATIO,
  USD,
} from './model-ratios';

/**
 * Models that sit in a default model list (see channel-types.ts) but have no price, as in one-api:
 * they cost UNKNOWN_MODEL_RATIO until an operator prices them.
 */
const UNPRICED_DEFAULT_MODELS: readonly string[] = [
  // OpenAI audio previews
  'gpt-4o-mini-audio-preview',
  'gpt-4o-mini-audio-preview-2024-12-17',
  'gpt-4o-audio-preview',
  'gpt-4o-audio-preview-2024-12-17',
  'gpt-4o-audio-preview-2024-10-01',
  'PaLM-2',
  'text-embedding-004',
  // one-api prices only the older SparkDesk names
  'Spark-Lite',
  'Spark-Pro',
  'Spark-Pro-128K',
  'Spark-Max',
  'Spark-Max-32K',
  'Spark-4.0-Ultra',
  'hunyuan-lite',
  'hunyuan-pro',
  'Baichuan-Text-Embedding',
  'MiniMax-VL-01',
  'MiniMax-Text-01',
  'llama-3.2-90b-vision-preview',
  'llava-v1.5-7b-4096-preview',
  'distil-whisper-large-v3-en',
  'whisper-large-v3',
  'whisper-large-v3-turbo',
  'deepseek-r1-distill-llama-70b-specdec',
  // Ollama runs locally; operators set their own price
  'codellama:7b-instruct',
  'llama2:7b',
  'llama2:latest',
  'llama3:latest',
  'phi3:latest',
  'qwen:0.5b-chat',
  'qwen:7b',
  'step-1x-medium',
  'openrouter/auto',
  // together.ai (39): one-api ships no price
  'meta-llama/Llama-3-70b-chat-hf',
  'deepseek-ai/deepseek-coder-33b-instruct',
  'mistralai/Mixtral-8x22B-Instruct-v0.1',
  'Qwen/Qwen1.5-72B-Chat',
  // ByteDance Volcano Engine (40): one-api ships no price
  'Doubao-pro-128k',
  'Doubao-pro-32k',
  'Doubao-pro-4k',
  'Doubao-lite-128k',
  'Doubao-lite-32k',
  'Doubao-lite-4k',
  'Doubao-embedding',
  // Novita (41): one-api ships no price
  'sao10k/l3-70b-euryale-v2.1',
  'Nous-Hermes-2-Mixtral-8x7B-DPO',
  'lzlv_70b',
  // SiliconFlow (44): one-api ships no price
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
  // xAI (45): one-api ships no price
  'grok-2',
  'grok-vision-beta',
  'grok-2-vision-1212',
  'grok-2-vision',
  'grok-2-vision-latest',
  'grok-2-1212',
  'grok-2-latest',
  // Baidu Qianfan V2 (47): one-api ships no price
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
  // iFlytek Spark V2 (48): one-api ships no price
  'lite',
  'generalv3',
  'pro-128k',
  'generalv3.5',
  'max-32k',
  '4.0Ultra',
  // Alibaba Cloud Bailian (49): one-api ships no price
  'qwen-long',
  // Cloudflare Workers AI's older (beta) models publish no price
  '@cf/meta/llama-2-7b-chat-int8',
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

/** Whether the default table prices this model (an unpriced one bills at UNKNOWN_MODEL_RATIO). */
const hasDefaultModelRatio = (model: string): boolean => Object.hasOwn(DEFAULT_MODEL_RATIO, model);

describe('units', () => {
  it("uses one-api's constants", () => {
    expect(USD).toBe(500);
    expect(RMB).toBe(71);
    expect(MILLI_USD).toBe(0.5);
    expect(UNKNOWN_MODEL_RATIO).toBe(30);
  });
});

describe('default model ratios', () => {
  it('prices every default model, except the ones knowingly left unpriced', () => {
    const unpriced = new Set(UNPRICED_DEFAULT_MODELS);
    // Cohere's `-internet` names are priced as the model without the suffix.
    const priced = (model: string) =>
      hasDefaultModelRatio(model) || resolveModelRatio(model) !== UNKNOWN_MODEL_RATIO;
    const missing = allModelNames().filter((model) => !priced(model) && !unpriced.has(model));
    expect(missing).toEqual([]);
  });

  it('lists as unpriced only models that are in a default list and really have no price', () => {
    const listed = new Set(allModelNames());
    expect(new Set(UNPRICED_DEFAULT_MODELS).size).toBe(UNPRICED_DEFAULT_MODELS.length);
    for (const model of UNPRICED_DEFAULT_MODELS) {
      expect(listed.has(model), model).toBe(true);
      expect(hasDefaultModelRatio(model), model).toBe(false);
      expect(resolveModelRatio(model)).toBe(UNKNOWN_MODEL_RATIO);
    }
  });

  it('holds only finite, non-negative ratios', () => {
    for (const [model, ratio] of Object.entries(DEFAULT_MODEL_RATIO)) {
      expect(Number.isFinite(ratio) && ratio >= 0, model).toBe(true);
    }
  });

  it.each([
    ['gpt-3.5-turbo', 0.25],
    ['gpt-3.5-turbo-1106', 0.5],
    ['gpt-4', 15],
    ['gpt-4-32k', 30],
    ['gpt-4o', 2.5],
    ['gpt-4o-mini', 0.075],
    ['o1-mini', 1.5],
    ['text-embedding-3-small', 0.01],
    ['dall-e-3', 20],
    ['claude-instant-1.2', 0.4],
    ['claude-3-haiku-20240307', 0.125],
    ['claude-3-opus-20240229', 7.5],
    ['claude-3-5-haiku-latest', 0.5],
    ['gemini-pro', 0.125],
    ['gemini-1.5-pro', 0.625],
    ['gemini-1.5-flash', 0.0375],
    ['ERNIE-4.0-8K', 8.52],
    ['ERNIE-Speed-8K', 0.284],
    ['qwen-turbo', 0.0213],
    ['qwen-max', 0.1704],
    ['glm-4v', 3.55],
    ['glm-3-turbo', 0.071],
    ['cogview-3', 7.1],
    ['360GPT_S2_V9', 0.8572],
    ['moonshot-v1-128k', 4.26],
    ['Baichuan2-Turbo', 0.568],
    ['abab5.5s-chat', 0.355],
    ['mistral-large-latest', 4],
    ['mixtral-8x7b-32768', 0.00012],
    ['gemma-7b-it', 0.000035],
    ['yi-34b-chat-200k', 0.852],
    ['step-1-32k', 0.001065],
    ['deepseek-chat', 0.07],
    ['deepseek-reasoner', 0.275],
  ])("prices %s at one-api's %s", (model, ratio) => {
    expect(DEFAULT_MODEL_RATIO[model]).toBe(ratio);
  });
});

describe('resolveModelRatio', () => {
  it('falls back to 30 for an unknown model, including names that exist on Object.prototype', () => {
    expect(resolveModelRatio('no-such-model', 1)).toBe(30);
    expect(resolveModelRatio('constructor', 1)).toBe(30);
    expect(resolveModelRatio('toString')).toBe(30);
  });

  it('prices a search-enabled qwen or command model as the plain model', () => {
    expect(resolveModelRatio('qwen-max-internet', 17)).toBe(DEFAULT_MODEL_RATIO['qwen-max']);
    expect(resolveModelRatio('command-r-internet')).toBe(DEFAULT_MODEL_RATIO['command-r']);
    expect(resolveModelRatio('gpt-4-internet')).toBe(30);
  });

  it('prefers the channel-typed key, then the operator map over the defaults', () => {
    expect(resolveModelRatio('llama3-8b-8192', 33)).toBe(0.15);
    expect(resolveModelRatio('llama3-8b-8192', 29)).toBe(0.000025);
    expect(resolveModelRatio('gpt-4', 1, { 'gpt-4': 1 })).toBe(1);
    expect(resolveModelRatio('gpt-4', 3, { 'gpt-4': 1, 'gpt-4(3)': 2 })).toBe(2);
    // A default typed key beats an operator's bare key, as in one-api.
    expect(resolveModelRatio('llama3-8b-8192', 33, { 'llama3-8b-8192': 9 })).toBe(0.15);
    expect(resolveModelRatio('my-model', 8, { 'my-model': 0 })).toBe(0);
  });
});

describe('completion ratios', () => {
  it.each([
    ['gpt-3.5-turbo', 3],
    ['gpt-3.5-turbo-0125', 3],
    ['gpt-3.5-turbo-1106', 2],
    ['gpt-3.5-turbo-16k', 4 / 3],
    ['gpt-3.5-turbo-instruct', 4 / 3],
    ['gpt-4', 2],
    ['gpt-4-0613', 2],
    ['gpt-4-32k', 2],
    ['gpt-4-turbo', 3],
    ['gpt-4-1106-preview', 3],
    ['gpt-4-vision-preview', 3],
    ['gpt-4o', 4],
    ['gpt-4o-2024-05-13', 3],
    ['gpt-4o-mini', 4],
    ['chatgpt-4o-latest', 3],
    ['o1', 4],
    ['o1-mini', 4],
    ['o3-mini', 1],
    ['claude-3-opus-20240229', 5],
    ['claude-3-5-sonnet-latest', 5],
    ['claude-2.1', 3],
    ['claude-instant-1.2', 3],
    ['mistral-large-latest', 3],
    ['gemini-1.5-pro', 3],
    ['deepseek-chat', 2],
    ['deepseek-reasoner', 2.19 / 0.55],
    ['whisper-1', 0],
    ['llama3-70b-8192', 0.79 / 0.59],
    ['command-r-plus', 5],
    ['qwen-turbo', 1],
    ['no-such-model', 1],
  ])('gives %s a completion ratio of %s', (model, ratio) => {
    expect(resolveCompletionRatio(model)).toBeCloseTo(ratio, 12);
  });

  it('uses the channel-typed defaults for AWS llama3', () => {
    expect(resolveCompletionRatio('llama3-8b-8192', 33)).toBe(2);
    expect(resolveCompletionRatio('llama3-70b-8192', 33)).toBeCloseTo(0.0035 / 0.00265, 12);
    expect(resolveCompletionRatio('llama3-70b-8192', 29)).toBeCloseTo(0.79 / 0.59, 12);
  });

  it('lets the operator map override the defaults and the rules', () => {
    expect(resolveCompletionRatio('gpt-4', 1, { 'gpt-4': 1.5 })).toBe(1.5);
    expect(resolveCompletionRatio('whisper-1', 1, { 'whisper-1': 1 })).toBe(1);
    expect(resolveCompletionRatio('qwen-max-internet', 17, { 'qwen-max': 2 })).toBe(2);
  });

  it('applies the name rules without consulting the maps', () => {
    expect(completionRatioByRule('whisper-1')).toBe(1);
    expect(completionRatioByRule('deepseek-reasoner')).toBe(2);
    expect(completionRatioByRule('gpt-4o-2024-08-06')).toBe(4);
  });
});

describe('option defaults', () => {
  it('serialises the ratio maps as JSON with sorted keys', () => {
    const parsed: Record<string, number> = JSON.parse(DEFAULT_MODEL_RATIO_JSON);
    expect(parsed).toEqual(DEFAULT_MODEL_RATIO);
    const keys = Object.keys(parsed);
    expect(keys).toEqual([...keys].sort());
    expect(JSON.parse(DEFAULT_COMPLETION_RATIO_JSON)).toEqual(DEFAULT_COMPLETION_RATIO);
  });

  it('prices at least one model of every channel type', () => {
    for (const t of CHANNEL_TYPES) {
      expect(
        t.defaultModels.some(hasDefaultModelRatio) ||
          [11, 18, 30, 34].includes(t.id) ||
          // one-api ships no price for any model of these later types; Proxy (43) has no models.
          [39, 40, 43, 44, 48].includes(t.id),
        `type ${t.id}`,
      ).toBe(true);
    }
  });
});
