/**
 * What a channel type is: the shape of one catalogue entry, and the builder the OpenAI-compatible
 * entries share. The entries themselves are in channel-types.ts and channel-types-*.ts.
 */

import { OPENAI_MODELS } from './channel-default-models';

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
  | 'aiproxy-library'
  | 'aws'
  | 'vertex'
  | 'coze'
  | 'cohere'
  | 'cloudflare'
  | 'deepl'
  | 'replicate'
  | 'proxy';

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
 * else the type's default), `{root}` (the same without a trailing `/v1`, for hosts whose billing
 * endpoints sit beside the API version) and `{key}` (the channel key); `field` is the dotted path of
 * the number.
 * - subscription: GET `url`, then GET `{base}/v1/dashboard/billing/usage?start_date=…&end_date=…`;
 *   balance = hard_limit_usd − total_usage / 100.
 * - credit-grants, sb-status, aiproxy-overview: one GET, balance = `field` (sb-status sends a string).
 *   aiproxy-overview authenticates with an `Api-Key` header instead of `Authorization: Bearer`.
 * - deepseek: one GET; balance = `field` of the `balance_infos` entry whose currency is CNY.
 * - siliconflow: one GET; the answer's `code` must be 20000, balance = `field`.
 */
export interface BalanceSource {
  kind: 'subscription' | 'credit-grants' | 'sb-status' | 'aiproxy-overview' | 'deepseek' | 'siliconflow';
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
   * model, `api-key` header); one chat path for a type that serves chat completions only (MiniMax,
   * Novita, Baidu Qianfan V2); a path per mode, other modes refused (Doubao, Bailian; Jina AI and
   * Voyage AI, embeddings only: their rerank calls have their own rule, `rerank`); or a base URL
   * that already holds the API version, so the client's leading `/v1` is dropped (OpenAI compatible,
   * Gemini's OpenAI endpoint).
   */
  url?: OpenAiUrlRule;
  /** Sends the gateway's name and site as `HTTP-Referer` and `X-Title` (OpenRouter ranks apps by them). */
  appHeaders?: boolean;
}

export type OpenAiUrlRule =
  | { kind: 'azure' }
  | { kind: 'chat-only'; path: string }
  | { kind: 'per-mode'; paths: { chat?: string; embeddings?: string } }
  | { kind: 'versioned-base' };

/**
 * The rerank API a type serves (POST /v1/rerank): Cohere's v2 (`/v2/rerank`, billed in search units),
 * Jina's shape (`/v1/rerank`, which SiliconFlow, together.ai and self-hosted servers such as vLLM,
 * TEI or Xinference share), Voyage's (`/v1/rerank`, `top_k`, answers in `data`), Bedrock Agent
 * Runtime's Rerank or Google's Discovery Engine ranking API. A type without one does not rerank.
 */
export type RerankApi = 'cohere' | 'jina' | 'voyage' | 'bedrock' | 'vertex';

/** How the console explains the base URL field: a proxy address unless the type needs its own. */
export type BaseUrlKind = 'proxy' | 'azure' | 'custom' | 'fastgpt';

/** The keys of one-api's channel config JSON (`channels.config`) a type's form may edit. */
export type ConfigKey = 'region' | 'ak' | 'sk' | 'user_id' | 'vertex_ai_project_id' | 'vertex_ai_adc';

/** One setting the channel form edits inside `config`. */
export interface ConfigField {
  key: ConfigKey;
  label: { en: string; zh: string };
  placeholder?: { en: string; zh: string };
  required?: boolean;
  /** A long value (a service-account JSON): a text area. */
  multiline?: boolean;
  /** A credential: never sent to a client that is not root, never logged. */
  secret?: boolean;
  /**
   * Decides where the channel's requests, and so its credentials, are sent (a part of the upstream's
   * host or path): only whoever may read the credentials, or brings new ones, may change it.
   */
  steers?: boolean;
  /** A cloud region: it becomes part of the upstream's host name (see isRegion). */
  format?: 'region';
}

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
  /** Undefined: the type does not rerank. */
  rerank?: RerankApi;
  /** Undefined: balance is not supported for this type. */
  balance?: ChannelBalance;
  defaultModels: readonly string[];
  /** Settings kept in the channel's config JSON, edited as fields of their own. */
  configFields?: readonly ConfigField[];
  /** The credentials are config fields (AWS, Vertex AI): the form has no key field. */
  keyInConfig?: boolean;
  /** A note shown under the type selector. */
  tip?: { en: string; zh: string };
  /**
   * Relays nothing through /v1 (one-api's Proxy): the form asks for no models or model mapping, the
   * channel may have none, and routing never picks it.
   */
  noModels?: boolean;
}

/** OpenAI itself and proxies of it: they take `stream_options.include_usage`. */
export const STREAM_USAGE: OpenAiDialect = { streamUsage: true };

/** A type that speaks OpenAI's API (with OpenAI's model list unless `extra` says otherwise). */
export const openAiLike = (
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
