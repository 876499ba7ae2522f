import { STORED_RESPONSE_ROUTES } from '../../relay/front/responses/routes';
import { NOT_IMPLEMENTED } from '../../relay/front/routes';
import { type Operation, operation as op } from './operation';

const openAi = 'OpenAI-compatible';

/** The relay (/v1, /v1beta) and the billing dashboard key-holders' clients read. */
export const RELAY_OPERATIONS: Operation[] = [
  op(
    'POST',
    '/v1/chat/completions',
    openAi,
    'key',
    ['Chat completion (streaming with stream: true)', '对话补全（stream: true 时流式返回）'],
    {
      body: 'ChatCompletionRequest',
    },
  ),
  op('POST', '/v1/completions', openAi, 'key', ['Text completion', '文本补全'], {
    body: 'CompletionRequest',
  }),
  op('POST', '/v1/embeddings', openAi, 'key', ['Embeddings', '向量嵌入'], { body: 'EmbeddingRequest' }),
  op(
    'POST',
    '/v1/engines/:model/embeddings',
    openAi,
    'key',
    ['Embeddings, the model in the path', '向量嵌入，模型写在路径中'],
    {
      body: 'EmbeddingRequest',
    },
  ),
  op('POST', '/v1/moderations', openAi, 'key', ['Moderation', '内容审核'], { body: 'ModerationRequest' }),
  op('POST', '/v1/images/generations', openAi, 'key', ['Image generation', '图像生成'], {
    body: 'ImageGenerationRequest',
  }),
  op(
    'POST',
    '/v1/audio/speech',
    openAi,
    'key',
    ['Text to speech (audio bytes back)', '文字转语音（返回音频字节）'],
    {
      body: 'SpeechRequest',
    },
  ),
  op('POST', '/v1/audio/transcriptions', openAi, 'key', ['Transcription', '语音转文字'], {
    body: 'TranscriptionRequest',
    multipart: true,
  }),
  op('POST', '/v1/audio/translations', openAi, 'key', ['Translation to English', '语音翻译为英文'], {
    body: 'TranscriptionRequest',
    multipart: true,
  }),
  op('GET', '/v1/models', openAi, 'key', ['Models the key may call', '令牌可调用的模型']),
  op('GET', '/v1/models/:model', openAi, 'key', ['One model the key may call', '令牌可调用的单个模型']),
  op(
    'POST',
    '/v1/responses',
    'OpenAI Responses',
    'key',
    ['Create a response (stateless)', '创建响应（无状态）'],
    {
      body: 'ResponsesRequest',
    },
  ),
  op(
    'GET',
    '/v1/realtime',
    'OpenAI Realtime',
    'key',
    [
      'A realtime session: upgraded to a WebSocket and relayed to an OpenAI or Azure channel, billed per response.done; the key in Authorization or, from a browser, the openai-insecure-api-key.<key> subprotocol; refusals (401, 403, 404, 429) are HTTP answers before the upgrade',
      '实时会话：升级为 WebSocket 并转发到 OpenAI 或 Azure 渠道，按每个 response.done 计费；令牌放在 Authorization 中，浏览器则放在 openai-insecure-api-key.<令牌> 子协议中；拒绝（401、403、404、429）在升级前以 HTTP 应答',
    ],
    { query: ['model', 'deployment'] },
  ),
  op('POST', '/v1/realtime/sessions', 'OpenAI Realtime', 'key', [
    'Mint an ephemeral client key (beta interface): refused (403 realtime_ephemeral_keys_disabled) unless REALTIME_EPHEMERAL_KEYS is on, since sessions opened with it bypass the gateway and are not billed',
    '签发临时客户端密钥（beta 接口）：未开启 REALTIME_EPHEMERAL_KEYS 时拒绝（403 realtime_ephemeral_keys_disabled），因为用它打开的会话绕过网关、不计费',
  ]),
  op('POST', '/v1/realtime/client_secrets', 'OpenAI Realtime', 'key', [
    'Mint an ephemeral client key (GA interface): refused unless REALTIME_EPHEMERAL_KEYS is on, for the same reason',
    '签发临时客户端密钥（GA 接口）：未开启 REALTIME_EPHEMERAL_KEYS 时拒绝，原因同上',
  ]),
  ...STORED_RESPONSE_ROUTES.map(([method, route]) =>
    op(method, route, 'OpenAI Responses', 'key', [
      'Not served: nothing is stored (404 responses_not_stored)',
      '不提供：不存储任何响应（404 responses_not_stored）',
    ]),
  ),
  op(
    'POST',
    '/v1/messages',
    'Anthropic',
    'key',
    ['Anthropic Messages (x-api-key or Bearer)', 'Anthropic Messages（x-api-key 或 Bearer）'],
    {
      body: 'AnthropicMessagesRequest',
    },
  ),
  op(
    'POST',
    '/v1/messages/count_tokens',
    'Anthropic',
    'key',
    ['Count the tokens of a message (not billed)', '计算消息的 token 数（不计费）'],
    {
      body: 'AnthropicCountTokensRequest',
    },
  ),
  op('GET', '/v1beta/models', 'Gemini', 'key', ['Models, in Google’s shape', '模型列表，Google 的格式']),
  op('GET', '/v1beta/models/*', 'Gemini', 'key', ['One model, in Google’s shape', '单个模型，Google 的格式']),
  op(
    'POST',
    '/v1beta/models/*',
    'Gemini',
    'key',
    [
      '{model}:generateContent, :streamGenerateContent or :countTokens',
      '{model}:generateContent、:streamGenerateContent 或 :countTokens',
    ],
    {
      body: 'GeminiGenerateContentRequest',
      query: ['alt', 'key'],
    },
  ),
  op(
    'POST',
    '/v1/models/*',
    'Gemini',
    'key',
    ['The Gemini actions under /v1/models/{model}:{action}', '/v1/models/{model}:{action} 下的 Gemini 操作'],
    {
      body: 'GeminiGenerateContentRequest',
      query: ['alt', 'key'],
    },
  ),
  ...['', '/v1'].flatMap((prefix) => [
    op('GET', `${prefix}/dashboard/billing/subscription`, 'Billing', 'key', [
      "The key's (or user's) quota in USD",
      '令牌（或用户）的额度，以美元计',
    ]),
    op(
      'GET',
      `${prefix}/dashboard/billing/usage`,
      'Billing',
      'key',
      ['Usage in cents over a range', '一段时间内的用量，以美分计'],
      {
        query: ['start_date', 'end_date'],
      },
    ),
  ]),
  ...NOT_IMPLEMENTED.map(([method, route]) =>
    op(method, route, 'Not served', 'key', [
      'An OpenAI endpoint this gateway does not serve (501)',
      '本网关不提供的 OpenAI 接口（501）',
    ]),
  ),
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).map((method) =>
    op(method, '/v1/oneapi/proxy/*', 'Not served', 'key', [
      "one-api's unbilled pass-through to Proxy channels (501)",
      'one-api 对代理渠道的不计费透传（501）',
    ]),
  ),
];
