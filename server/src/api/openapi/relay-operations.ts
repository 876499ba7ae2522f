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
  op(
    'POST',
    '/v1/images/generations',
    openAi,
    'key',
    [
      'Image generation: DALL·E per picture by size and quality, GPT image models by the tokens they report',
      '图像生成：DALL·E 按张数、尺寸和质量计费，GPT 图像模型按上游报告的 token 计费',
    ],
    { body: 'ImageGenerationRequest' },
  ),
  op(
    'POST',
    '/v1/images/edits',
    openAi,
    'key',
    [
      'Image edit (multipart: image or image[], mask, prompt), billed as image generation',
      '图像编辑（multipart：image 或 image[]、mask、prompt），计费同图像生成',
    ],
    { body: 'ImageEditRequest', multipart: true },
  ),
  op(
    'POST',
    '/v1/images/variations',
    openAi,
    'key',
    [
      'Image variation (multipart: image), billed per picture by size',
      '图像变体（multipart：image），按张数和尺寸计费',
    ],
    { body: 'ImageVariationRequest', multipart: true },
  ),
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
  op(
    'POST',
    '/v1/rerank',
    openAi,
    'key',
    [
      'Rerank documents by relevance to a query (Cohere, Jina, SiliconFlow, Voyage)',
      '按与查询的相关性重排文档（Cohere、Jina、SiliconFlow、Voyage）',
    ],
    { body: 'RerankRequest' },
  ),
  op(
    'POST',
    '/v2/rerank',
    openAi,
    'key',
    [
      "/v1/rerank at Cohere's v2 path, for Cohere's SDKs",
      'Cohere v2 路径上的 /v1/rerank，供 Cohere SDK 使用',
    ],
    {
      body: 'RerankRequest',
    },
  ),
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
  op(
    'POST',
    '/v1/videos',
    'Videos',
    'key',
    [
      'Make a video (Sora; Veo on Gemini channels): its price held until it completes',
      '生成视频（Sora；Gemini 渠道上为 Veo）：完成前预扣其价格',
    ],
    { body: 'VideoRequest' },
  ),
  op('GET', '/v1/videos', 'Videos', 'key', ['The video jobs of the key’s user', '令牌所属用户的视频任务'], {
    query: ['after', 'limit', 'order'],
  }),
  op('GET', '/v1/videos/:id', 'Videos', 'key', [
    'A video job now (charged once it completed, refunded if it failed)',
    '视频任务的当前状态（完成时扣费，失败时退还）',
  ]),
  op(
    'GET',
    '/v1/videos/:id/content',
    'Videos',
    'key',
    ['The video, streamed from the job’s channel', '视频内容，经任务的渠道流式传回'],
    { query: ['variant'] },
  ),
  op(
    'GET',
    '/v1beta/files/*',
    'Gemini',
    'key',
    [
      '{job}-{n}:download: a Veo operation’s video, fetched with the channel’s key',
      '{job}-{n}:download：Veo 操作生成的视频，用渠道的密钥取回',
    ],
    { query: ['alt', 'key'] },
  ),
  op('GET', '/v1beta/models', 'Gemini', 'key', ['Models, in Google’s shape', '模型列表，Google 的格式']),
  op('GET', '/v1beta/models/*', 'Gemini', 'key', [
    'One model, in Google’s shape; or {model}/operations/{job}: a Veo operation now',
    '单个模型，Google 的格式；或 {model}/operations/{job}：Veo 操作的当前状态',
  ]),
  op(
    'POST',
    '/v1beta/models/*',
    'Gemini',
    'key',
    [
      '{model}:generateContent, :streamGenerateContent, :countTokens, or :predictLongRunning (Veo, billed as a video job)',
      '{model}:generateContent、:streamGenerateContent、:countTokens，或 :predictLongRunning（Veo，按视频任务计费）',
    ],
    {
      body: ['GeminiGenerateContentRequest', 'VeoPredictRequest'],
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
