import { describe, expect, it } from 'vitest';
import { channelTypeById, channelTypeLabel } from './channel-types';
import { LATER_OPENAI_TYPES } from './channel-types-openai';
import { createChannelInput, updateChannelInput } from './channels';

const type = (id: number) => {
  const found = channelTypeById(id);
  if (!found) throw new Error(`no channel type ${id}`);
  return found;
};

describe("one-api's later OpenAI-format types", () => {
  it('holds 36, 39–41, 43–45 and 47–51 with their console labels and colours', () => {
    expect(LATER_OPENAI_TYPES.map((t) => [t.id, t.name.en, t.name.zh, t.color])).toEqual([
      [36, 'DeepSeek', 'DeepSeek', 'dark'],
      [39, 'together.ai', 'together.ai', 'blue'],
      [40, 'ByteDance Volcano Engine', '字节火山引擎', 'blue'],
      [41, 'Novita', 'Novita', 'grape'],
      [43, 'Proxy', 'Proxy', 'blue'],
      [44, 'SiliconFlow', 'SiliconFlow', 'blue'],
      [45, 'xAI', 'xAI', 'blue'],
      [47, 'Baidu Qianfan V2', '百度文心千帆 V2', 'blue'],
      [48, 'iFlytek Spark V2', '讯飞星火认知 V2', 'blue'],
      [49, 'Alibaba Cloud Bailian', '阿里云百炼', 'orange'],
      [50, 'OpenAI compatible', 'OpenAI 兼容', 'lime'],
      [51, 'Gemini (OpenAI)', 'Gemini (OpenAI)', 'orange'],
    ]);
    for (const t of LATER_OPENAI_TYPES) expect(channelTypeById(t.id)).toBe(t);
    expect(channelTypeLabel(type(43), 'en')).toBe('Proxy');
  });

  it("uses one-api's default base URLs; Proxy and OpenAI compatible need their own", () => {
    const bases = Object.fromEntries(LATER_OPENAI_TYPES.map((t) => [t.id, t.defaultBaseUrl]));
    expect(bases).toEqual({
      36: 'https://api.deepseek.com',
      39: 'https://api.together.xyz',
      40: 'https://ark.cn-beijing.volces.com',
      41: 'https://api.novita.ai/v3/openai',
      43: '',
      44: 'https://api.siliconflow.cn',
      45: 'https://api.x.ai',
      47: 'https://qianfan.baidubce.com',
      48: 'https://spark-api-open.xf-yun.com',
      49: 'https://dashscope.aliyuncs.com',
      50: '',
      51: 'https://generativelanguage.googleapis.com/v1beta/openai',
    });
    expect(LATER_OPENAI_TYPES.filter((t) => t.baseUrlRequired).map((t) => t.id)).toEqual([43, 50]);
  });

  it('speaks OpenAI except Proxy, with the URL rules one-api gives each', () => {
    expect(LATER_OPENAI_TYPES.filter((t) => t.apiStyle !== 'openai').map((t) => [t.id, t.apiStyle])).toEqual([
      [43, 'proxy'],
    ]);
    const rules = Object.fromEntries(
      LATER_OPENAI_TYPES.filter((t) => t.openAi?.url).map((t) => [t.id, t.openAi?.url]),
    );
    expect(rules).toEqual({
      40: { kind: 'per-mode', paths: { chat: '/api/v3/chat/completions', embeddings: '/api/v3/embeddings' } },
      41: { kind: 'chat-only', path: '/chat/completions' },
      47: { kind: 'chat-only', path: '/v2/chat/completions' },
      49: {
        kind: 'per-mode',
        paths: { chat: '/compatible-mode/v1/chat/completions', embeddings: '/compatible-mode/v1/embeddings' },
      },
      50: { kind: 'versioned-base' },
      51: { kind: 'versioned-base' },
    });
    const streamUsage = LATER_OPENAI_TYPES.filter((t) => t.openAi?.streamUsage).map((t) => t.id);
    expect(streamUsage).toEqual([36, 39, 40, 44, 45, 49, 50, 51]);
  });

  it("lists one-api's default models", () => {
    expect(type(36).defaultModels).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(type(45).defaultModels.every((model) => model.startsWith('grok-'))).toBe(true);
    expect(type(39).defaultModels).toHaveLength(4);
    expect(type(41).defaultModels).toHaveLength(13);
    // one-api's 30, then the gateway's two rerankers.
    expect(type(44).defaultModels).toHaveLength(32);
    expect(type(44).defaultModels).toContain('BAAI/bge-reranker-v2-m3');
    expect(type(47).defaultModels).toContain('deepseek-r1');
    expect(type(49).defaultModels).toContain('qwq-32b-preview');
    expect(type(50).defaultModels).toBe(type(2).defaultModels);
    // Gemini's chat models; Veo (type 24's video models) is not on the OpenAI-compatible endpoint.
    expect(type(24).defaultModels).toEqual(expect.arrayContaining([...type(51).defaultModels]));
    expect(type(43).defaultModels).toEqual([]);
  });

  it('reads balances of DeepSeek and SiliconFlow only, in yuan', () => {
    const balances = LATER_OPENAI_TYPES.filter((t) => t.balance).map((t) => [t.id, t.balance]);
    expect(balances).toEqual([
      [36, { unit: 'cny', source: { kind: 'deepseek', url: '{root}/user/balance', field: 'total_balance' } }],
      [
        44,
        {
          unit: 'cny',
          source: { kind: 'siliconflow', url: '{root}/v1/user/info', field: 'data.totalBalance' },
        },
      ],
    ]);
  });

  it('points the older types to their successors with tips', () => {
    const tipped = [8, 15, 17, 18, 40, 43, 47, 48, 50, 51];
    for (const id of tipped) {
      expect(type(id).tip?.en, `type ${id}`).toBeTruthy();
      expect(type(id).tip?.zh, `type ${id}`).toBeTruthy();
    }
    expect(type(8).tip?.en).toMatch(/OpenAI compatible/);
    expect(type(15).tip?.en).toMatch(/Qianfan V2/);
    expect(type(17).tip?.en).toMatch(/Bailian/);
    expect(type(18).tip?.en).toMatch(/Spark V2/);
  });

  it('lets a Proxy channel have no models, and no other type', () => {
    const proxy = { type: 43, name: 'pass', key: 'Bearer sk-up', base_url: 'https://up.example.com' };
    expect(createChannelInput.parse(proxy).models).toBe('');
    expect(type(43).noModels).toBe(true);
    const refused = createChannelInput.safeParse({ ...proxy, type: 50 });
    expect(refused.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['models'], 'Please select at least one model'],
    ]);
    expect(updateChannelInput.safeParse({ id: 3, type: 43, models: '' }).success).toBe(true);
    expect(updateChannelInput.safeParse({ id: 3, type: 36, models: '' }).success).toBe(false);
  });
});
