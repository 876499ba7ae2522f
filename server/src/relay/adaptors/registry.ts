import {
  type ApiStyle,
  CHANNEL_TYPES,
  type ChannelType,
  channelTypeById,
  type RerankApi,
} from '@switchyard/contract/channel-types';
import { adaptor as aiProxyLibrary } from './aiproxy-library';
import { adaptor as ali } from './ali';
import { adaptor as anthropic } from './anthropic';
import { adaptor as aws } from './aws';
import { adaptor as baidu } from './baidu';
import { adaptor as cloudflare } from './cloudflare';
import { adaptor as cohere } from './cohere';
import { adaptor as coze } from './coze';
import { adaptor as deepl } from './deepl';
import { adaptor as gemini } from './gemini';
import { adaptor as ollama } from './ollama';
import { openAiAdaptor } from './openai';
import { openAiSettingsOf } from './openai/dialect';
import { adaptor as palm } from './palm';
import { adaptor as replicate } from './replicate';
import { rerankAdaptor } from './rerank';
import { bedrockRerankAdaptor } from './rerank/bedrock';
import { vertexRerankAdaptor } from './rerank/vertex';
import { adaptor as tencent } from './tencent';
import type { Adaptor } from './types';
import { adaptor as vertex } from './vertex';
import { adaptor as xunfei } from './xunfei';
import { adaptor as zhipu } from './zhipu';

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
  coze,
  cohere,
  cloudflare,
  deepl,
  replicate,
  aws,
  vertex,
};

/** The OpenAI-compatible family: one adaptor per type, its differences read from the catalogue. */
const OPENAI_LIKE = new Map<number, Adaptor>(
  CHANNEL_TYPES.filter((type) => type.apiStyle === 'openai').map((type) => [
    type.id,
    openAiAdaptor(openAiSettingsOf(type)),
  ]),
);

/** The adaptor that speaks a channel type's wire format; undefined for a type not relayed yet. */
export function adaptorFor(type: number): Adaptor | undefined {
  const style = channelTypeById(type)?.apiStyle;
  if (style === 'openai') return OPENAI_LIKE.get(type);
  return style ? BY_STYLE[style] : undefined;
}

/** The clouds' rerank APIs have their own adaptors; the others share one, read from the catalogue. */
function rerankAdaptorOf(api: RerankApi, type: ChannelType): Adaptor {
  if (api === 'bedrock') return bedrockRerankAdaptor;
  if (api === 'vertex') return vertexRerankAdaptor;
  return rerankAdaptor(api, type);
}

/** Each type's rerank adaptor, for the types whose catalogue entry names a rerank API. */
const RERANKING = new Map<number, Adaptor>(
  CHANNEL_TYPES.flatMap((type) =>
    type.rerank ? [[type.id, rerankAdaptorOf(type.rerank, type)] as const] : [],
  ),
);

/** The adaptor for rerank calls on a channel type; undefined for a type that does not rerank. */
export function rerankAdaptorFor(type: number): Adaptor | undefined {
  return RERANKING.get(type);
}
