import { describe, expect, it } from 'vitest';
import { OPENAI_REALTIME_MODELS, OPENAI_VIDEO_MODELS, VEO_MODELS } from './channel-default-models';
import {
  allModelNames,
  CHANNEL_TYPES,
  type ChannelGroup,
  ChannelTypeId,
  channelTypeById,
  channelTypeLabel,
  modelsByChannelType,
} from './channel-types';

/** The console spec's table (section 3), in its order: [id, group, English name]. */
const SPEC_TABLE: ReadonlyArray<readonly [number, ChannelGroup, string]> = [
  [1, 'direct', 'OpenAI'],
  [14, 'direct', 'Anthropic Claude'],
  [3, 'direct', 'Azure OpenAI'],
  [11, 'direct', 'Google PaLM2'],
  [24, 'direct', 'Google Gemini'],
  [28, 'direct', 'Mistral AI'],
  [15, 'direct', 'Baidu Wenxin'],
  [17, 'direct', 'Alibaba Tongyi Qianwen'],
  [18, 'direct', 'iFlytek Spark'],
  [16, 'direct', 'Zhipu ChatGLM'],
  [19, 'direct', '360 Zhinao'],
  [25, 'direct', 'Moonshot AI'],
  [23, 'direct', 'Tencent Hunyuan'],
  [26, 'direct', 'Baichuan'],
  [27, 'direct', 'MiniMax'],
  [29, 'direct', 'Groq'],
  [30, 'direct', 'Ollama'],
  [31, 'direct', 'Lingyi Wanwu (01.AI)'],
  [32, 'direct', 'Stepfun'],
  [8, 'custom', 'Custom channel'],
  [22, 'knowledge', 'FastGPT'],
  [21, 'knowledge', 'AI Proxy'],
  [20, 'proxy', 'OpenRouter'],
  [2, 'proxy', 'API2D'],
  [5, 'proxy', 'OpenAI-SB'],
  [7, 'proxy', 'OhMyGPT'],
  [10, 'proxy', 'AI Proxy'],
  [4, 'proxy', 'CloseAI'],
  [6, 'proxy', 'OpenAI Max'],
  [9, 'proxy', 'AI.LS'],
  [12, 'proxy', 'API2GPT'],
  [13, 'proxy', 'AIGC2D'],
];

const ALL_IDS = Array.from({ length: 32 }, (_, i) => i + 1);
/** Every type id: v0.6.5's, the 19 one-api added later (33–51) and the gateway's own (1001 on). */
const EVERY_ID = [...Array.from({ length: 51 }, (_, i) => i + 1), 1001, 1002];

/** The types of the console spec (one-api v0.6.5); later ones are checked in their own suites. */
const V065_TYPES = CHANNEL_TYPES.filter((t) => t.id <= 32);

const type = (id: number) => {
  const found = channelTypeById(id);
  if (!found) throw new Error(`no channel type ${id}`);
  return found;
};

describe('channel type catalogue', () => {
  it('holds every spec id 1–32 exactly once, in the spec order, with its group and English name', () => {
    expect(V065_TYPES.map((t) => [t.id, t.group, t.name.en])).toEqual(SPEC_TABLE);
    expect(V065_TYPES.map((t) => t.id).sort((a, b) => a - b)).toEqual(ALL_IDS);
  });

  it('names every type in Chinese, with one-api console names for the Chinese providers', () => {
    for (const t of V065_TYPES) expect(t.name.zh.trim()).not.toBe('');
    expect(type(15).name.zh).toBe('百度文心千帆');
    expect(type(17).name.zh).toBe('阿里通义千问');
    expect(type(18).name.zh).toBe('讯飞星火认知');
    expect(type(8).name.zh).toBe('自定义渠道');
    expect(type(31).name.zh).toBe('零一万物');
  });

  it('prefixes knowledge bases and proxies with their group in labels', () => {
    expect(channelTypeLabel(type(1), 'en')).toBe('OpenAI');
    expect(channelTypeLabel(type(10), 'zh')).toBe('代理：AI Proxy');
    expect(channelTypeLabel(type(21), 'zh')).toBe('知识库：AI Proxy');
    expect(channelTypeLabel(type(21), 'en')).toBe('Knowledge base: AI Proxy');
    expect(channelTypeLabel(type(20), 'en')).toBe('Proxy: OpenRouter');
  });

  it('gives key format hints only to the types whose key joins several credentials', () => {
    const hints = Object.fromEntries(V065_TYPES.filter((t) => t.keyHint).map((t) => [t.id, t.keyHint]));
    expect(hints).toEqual({
      15: 'APIKey|SecretKey',
      18: 'APPID|APISecret|APIKey',
      22: 'APIKey-AppId',
      23: 'AppId|SecretId|SecretKey',
    });
  });

  it('shows balances as the spec says and marks every other type unsupported', () => {
    const shown = Object.fromEntries(
      V065_TYPES.filter((t) => t.balance).map((t) => [
        t.id,
        { unit: t.balance?.unit, divisor: t.balance?.divisor },
      ]),
    );
    expect(shown).toEqual({
      1: { unit: 'usd', divisor: undefined },
      8: { unit: 'usd', divisor: undefined },
      4: { unit: 'cny', divisor: undefined },
      12: { unit: 'cny', divisor: undefined },
      5: { unit: 'cny', divisor: 10000 },
      10: { unit: 'quota', divisor: undefined },
      13: { unit: 'quota', divisor: undefined },
    });
    for (const id of [2, 3, 6, 7, 9, 14, 20, 21, 22, 30]) expect(type(id).balance).toBeUndefined();
  });

  it('knows where each balance is read upstream', () => {
    expect(type(1).balance?.source).toEqual(type(8).balance?.source);
    expect(type(1).balance?.source.kind).toBe('subscription');
    expect(type(4).balance?.source).toMatchObject({ kind: 'credit-grants', field: 'total_available' });
    expect(type(4).balance?.source.url.startsWith('{base}/')).toBe(true);
    expect(type(12).balance?.source).toMatchObject({ kind: 'credit-grants', field: 'total_remaining' });
    expect(type(13).balance?.source.url).toBe('https://api.aigc2d.com/dashboard/billing/credit_grants');
    expect(type(5).balance?.source).toMatchObject({ kind: 'sb-status', field: 'data.credit' });
    expect(type(5).balance?.source.url).toContain('{key}');
    expect(type(10).balance?.source).toMatchObject({ kind: 'aiproxy-overview', field: 'data.totalPoints' });
  });

  it('describes the other field where a type uses it', () => {
    const others = Object.fromEntries(V065_TYPES.filter((t) => t.other).map((t) => [t.id, t.other?.kind]));
    expect(others).toEqual({
      3: 'azureApiVersion',
      17: 'aliPlugin',
      18: 'sparkVersion',
      21: 'knowledgeLibraryId',
      24: 'geminiVersion',
    });
    expect(type(3).other?.default).toBe('2024-03-01-preview');
    expect(type(18).other?.default).toBe('v2.1');
  });

  it('asks for stream usage only where the upstream takes stream_options; two types have their own URLs', () => {
    const streamUsage = V065_TYPES.filter((t) => t.openAi?.streamUsage).map((t) => t.id);
    expect(streamUsage.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 20]);
    expect(type(3).openAi?.url).toEqual({ kind: 'azure' });
    expect(type(27).openAi?.url).toEqual({ kind: 'chat-only', path: '/v1/text/chatcompletion_v2' });
    expect(V065_TYPES.filter((t) => t.openAi?.appHeaders).map((t) => t.id)).toEqual([20]);
    expect(CHANNEL_TYPES.filter((t) => t.openAi && t.apiStyle !== 'openai')).toEqual([]);
  });

  it("maps types to one-api's API styles: own formats for ten types, OpenAI for the rest", () => {
    const own = Object.fromEntries(
      V065_TYPES.filter((t) => t.apiStyle !== 'openai').map((t) => [t.id, t.apiStyle]),
    );
    expect(own).toEqual({
      11: 'palm',
      14: 'anthropic',
      15: 'baidu',
      16: 'zhipu',
      17: 'ali',
      18: 'xunfei',
      21: 'aiproxy-library',
      23: 'tencent',
      24: 'gemini',
      30: 'ollama',
    });
  });

  it("uses one-api's default base URLs, empty only where the user must give one or the host is fixed", () => {
    const empty = V065_TYPES.filter((t) => t.defaultBaseUrl === '').map((t) => t.id);
    expect(empty.sort((a, b) => a - b)).toEqual([3, 8, 18]);
    for (const t of CHANNEL_TYPES) {
      if (t.defaultBaseUrl) expect(t.defaultBaseUrl).toMatch(/^https?:\/\/\S+[^/]$/);
    }
    expect(type(1).defaultBaseUrl).toBe('https://api.openai.com');
    expect(type(20).defaultBaseUrl).toBe('https://openrouter.ai/api');
    expect(type(23).defaultBaseUrl).toBe('https://hunyuan.tencentcloudapi.com');
    expect(type(29).defaultBaseUrl).toBe('https://api.groq.com/openai');
    expect(V065_TYPES.filter((t) => t.baseUrlRequired).map((t) => t.id)).toEqual([3, 8]);
  });

  it('gives every type a non-empty default model list without duplicates', () => {
    for (const t of CHANNEL_TYPES) {
      // Proxy (43) serves no models; a Coze (34) model is a bot id the administrator adds (one-api lists none).
      if (!t.noModels && t.id !== 34) expect(t.defaultModels.length, `type ${t.id}`).toBeGreaterThan(0);
      expect(new Set(t.defaultModels).size, `type ${t.id}`).toBe(t.defaultModels.length);
    }
  });

  it("keeps the spec's OpenAI baseline and adds one-api's newer OpenAI models", () => {
    const openai = type(1).defaultModels;
    for (const model of [
      'gpt-3.5-turbo',
      'gpt-4',
      'gpt-4-32k',
      'text-embedding-ada-002',
      'dall-e-3',
      'whisper-1',
    ]) {
      expect(openai).toContain(model);
    }
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'chatgpt-4o-latest', 'o1', 'o1-mini', 'o1-preview']) {
      expect(openai).toContain(model);
    }
    // OpenAI's own list adds its Realtime and video models, Azure the Realtime ones; proxies keep the base list.
    const proxies = type(2).defaultModels;
    expect(openai).toEqual([...proxies, ...OPENAI_REALTIME_MODELS, ...OPENAI_VIDEO_MODELS]);
    expect(type(3).defaultModels).toEqual([...proxies, ...OPENAI_REALTIME_MODELS]);
    for (const id of [4, 5, 6, 7, 8, 9, 10, 12, 13, 21, 22]) expect(type(id).defaultModels).toBe(proxies);
  });

  it('lists the video models of the types that relay /v1/videos and the rerankers of the clouds', () => {
    expect(type(24).defaultModels).toEqual(expect.arrayContaining([...VEO_MODELS]));
    expect(type(33).defaultModels).toContain('cohere.rerank-v3-5:0');
    expect(type(42).defaultModels).toContain('semantic-ranker-default@latest');
  });

  it("keeps the spec's baseline models for providers whose names did not change", () => {
    const baseline: Record<number, string[]> = {
      14: [
        'claude-instant-1.2',
        'claude-2.0',
        'claude-2.1',
        'claude-3-haiku-20240307',
        'claude-3-opus-20240229',
      ],
      15: ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-128K', 'Embedding-V1', 'tao-8k'],
      17: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'qwen-max-longcontext', 'text-embedding-v1', 'wanx-v1'],
      19: ['360GPT_S2_V9', 'embedding-bert-512-v1', 'embedding_s1_v1', 'semantic_similarity_s1_v1'],
      25: ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
      26: ['Baichuan2-Turbo', 'Baichuan2-Turbo-192k', 'Baichuan-Text-Embedding'],
      27: ['abab5.5s-chat', 'abab5.5-chat', 'abab6-chat'],
      28: ['open-mistral-7b', 'open-mixtral-8x7b', 'mistral-large-latest', 'mistral-embed'],
      30: ['qwen:0.5b-chat'],
      31: ['yi-34b-chat-0205', 'yi-34b-chat-200k', 'yi-vl-plus'],
      32: ['step-1-32k', 'step-1v-32k'],
    };
    for (const [id, models] of Object.entries(baseline)) {
      for (const model of models) expect(type(Number(id)).defaultModels, `type ${id}`).toContain(model);
    }
  });
});

describe('catalogue lookups', () => {
  it('finds types by id and refuses unknown ones', () => {
    expect(channelTypeById(3)?.name.en).toBe('Azure OpenAI');
    expect(channelTypeById(0)).toBeUndefined();
    expect(channelTypeById(52)).toBeUndefined();
    const isKnownChannelType = (id: number) => channelTypeById(id) !== undefined;
    expect(EVERY_ID.every(isKnownChannelType)).toBe(true);
    expect(isKnownChannelType(0)).toBe(false);
    expect(isKnownChannelType(52)).toBe(false);
    expect(isKnownChannelType(1.5)).toBe(false);
  });

  it('says which types rerank, and with which API', () => {
    const reranking = CHANNEL_TYPES.filter((t) => t.rerank).map((t) => [t.id, t.rerank]);
    expect(reranking).toEqual([
      [8, 'jina'],
      [39, 'jina'],
      [44, 'jina'],
      [50, 'jina'],
      [33, 'bedrock'],
      [42, 'vertex'],
      [35, 'cohere'],
      [1001, 'jina'],
      [1002, 'voyage'],
    ]);
    expect(type(35).defaultModels).toContain('rerank-v3.5');
    expect(type(1002).defaultModels).toContain('rerank-2-lite');
  });

  it('names every id in ChannelTypeId once', () => {
    const values = Object.values(ChannelTypeId).sort((a, b) => a - b);
    expect(values).toEqual(EVERY_ID);
    expect(channelTypeById(ChannelTypeId.azure)?.name.en).toBe('Azure OpenAI');
    expect(channelTypeById(ChannelTypeId.fastGpt)?.name.en).toBe('FastGPT');
  });

  it('answers GET /api/models with every type id as a string key and copies of the lists', () => {
    const map = modelsByChannelType();
    const ids = CHANNEL_TYPES.map((t) => t.id).sort((a, b) => a - b);
    expect(Object.keys(map).sort((a, b) => Number(a) - Number(b))).toEqual(ids.map(String));
    for (const t of CHANNEL_TYPES) expect(map[String(t.id)]).toEqual([...t.defaultModels]);
    map['1']?.push('mutated');
    expect(type(1).defaultModels).not.toContain('mutated');
  });

  it('answers GET /api/channel/models with every default model once, sorted', () => {
    const names = allModelNames();
    const union = new Set(CHANNEL_TYPES.flatMap((t) => t.defaultModels));
    expect(names).toHaveLength(union.size);
    expect(new Set(names)).toEqual(union);
    expect([...names].sort()).toEqual(names);
    expect(names).toContain('gpt-4o');
    expect(names).toContain('ERNIE-4.0-8K');
  });
});
