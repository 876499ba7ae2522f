import { type ApiStyle, ChannelTypeId, channelTypeById } from '@switchyard/contract/channel-types';
import { RelayError } from '../errors';
import { adaptor as aiProxyLibrary } from './aiproxy-library';
import { adaptor as ali } from './ali';
import { adaptor as anthropic } from './anthropic';
import { adaptor as baidu } from './baidu';
import { adaptor as gemini } from './gemini';
import { adaptor as ollama } from './ollama';
import { azureAdaptor, openAiAdaptor } from './openai';
import { adaptor as palm } from './palm';
import { adaptor as tencent } from './tencent';
import type { Adaptor } from './types';
import { adaptor as xunfei } from './xunfei';
import { adaptor as zhipu } from './zhipu';

const PRODUCT_HEADERS = {
  'HTTP-Referer': 'https://github.com/switchyard-gateway/switchyard',
  'X-Title': 'Switchyard',
};

/**
 * Types that forward to OpenAI itself (or a proxy of it) and so understand `stream_options.include_usage`.
 * Mistral refuses the field (422) and reports usage in its last chunk anyway; Groq is left out as well.
 */
const STREAM_USAGE_TYPES = new Set<number>([
  ChannelTypeId.openai,
  ChannelTypeId.api2d,
  ChannelTypeId.closeAi,
  ChannelTypeId.openAiSb,
  ChannelTypeId.openAiMax,
  ChannelTypeId.ohMyGpt,
  ChannelTypeId.custom,
  ChannelTypeId.aiLs,
  ChannelTypeId.aiProxy,
  ChannelTypeId.api2Gpt,
  ChannelTypeId.aigc2d,
  ChannelTypeId.openRouter,
]);

/** OpenAI-compatible types with their own twist. */
const SPECIAL: Partial<Record<number, Adaptor>> = {
  [ChannelTypeId.azure]: azureAdaptor,
  [ChannelTypeId.openRouter]: openAiAdaptor({ extraHeaders: PRODUCT_HEADERS, streamUsage: true }),
  [ChannelTypeId.minimax]: openAiAdaptor({
    url: (call) => {
      if (call.mode !== 'chat') {
        throw RelayError.invalid('MiniMax channels serve chat completions only');
      }
      return `${call.baseUrl}/v1/text/chatcompletion_v2${call.query}`;
    },
  }),
};

/** Providers with their own wire format, one folder each. */
const BY_STYLE: Partial<Record<ApiStyle, Adaptor | undefined>> = {
  anthropic,
  gemini,
  palm,
  baidu,
  ali,
  zhipu,
  xunfei,
  tencent,
  ollama,
  'aiproxy-library': aiProxyLibrary,
};

const plainOpenAi = openAiAdaptor({ streamUsage: false });
const openAiWithUsage = openAiAdaptor({ streamUsage: true });

/** The adaptor that speaks a channel type's wire format; undefined for a type not relayed yet. */
export function adaptorFor(type: number): Adaptor | undefined {
  const special = SPECIAL[type];
  if (special) return special;
  const style = channelTypeById(type)?.apiStyle;
  if (style !== 'openai') return style ? BY_STYLE[style] : undefined;
  return STREAM_USAGE_TYPES.has(type) ? openAiWithUsage : plainOpenAi;
}
