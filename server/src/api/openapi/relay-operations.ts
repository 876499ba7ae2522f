import { STORED_RESPONSE_ROUTES } from '../../relay/front/responses/routes';
import { NOT_IMPLEMENTED } from '../../relay/front/routes';
import { type Operation, operation as op } from './operation';

const openAi = 'OpenAI-compatible';

/** The relay (/v1, /v1beta) and the billing dashboard key-holders' clients read. */
export const RELAY_OPERATIONS: Operation[] = [
  op('POST', '/v1/chat/completions', openAi, 'key', 'Chat completion (streaming with stream: true)', {
    body: 'ChatCompletionRequest',
  }),
  op('POST', '/v1/completions', openAi, 'key', 'Text completion', { body: 'CompletionRequest' }),
  op('POST', '/v1/embeddings', openAi, 'key', 'Embeddings', { body: 'EmbeddingRequest' }),
  op('POST', '/v1/engines/:model/embeddings', openAi, 'key', 'Embeddings, the model in the path', {
    body: 'EmbeddingRequest',
  }),
  op('POST', '/v1/moderations', openAi, 'key', 'Moderation', { body: 'ModerationRequest' }),
  op('POST', '/v1/images/generations', openAi, 'key', 'Image generation', { body: 'ImageGenerationRequest' }),
  op('POST', '/v1/audio/speech', openAi, 'key', 'Text to speech (audio bytes back)', {
    body: 'SpeechRequest',
  }),
  op('POST', '/v1/audio/transcriptions', openAi, 'key', 'Transcription', {
    body: 'TranscriptionRequest',
    multipart: true,
  }),
  op('POST', '/v1/audio/translations', openAi, 'key', 'Translation to English', {
    body: 'TranscriptionRequest',
    multipart: true,
  }),
  op('GET', '/v1/models', openAi, 'key', 'Models the key may call'),
  op('GET', '/v1/models/:model', openAi, 'key', 'One model the key may call'),
  op('POST', '/v1/responses', 'OpenAI Responses', 'key', 'Create a response (stateless)', {
    body: 'ResponsesRequest',
  }),
  ...STORED_RESPONSE_ROUTES.map(([method, route]) =>
    op(method, route, 'OpenAI Responses', 'key', 'Not served: nothing is stored (404 responses_not_stored)'),
  ),
  op('POST', '/v1/messages', 'Anthropic', 'key', 'Anthropic Messages (x-api-key or Bearer)', {
    body: 'AnthropicMessagesRequest',
  }),
  op('POST', '/v1/messages/count_tokens', 'Anthropic', 'key', 'Count the tokens of a message (not billed)', {
    body: 'AnthropicCountTokensRequest',
  }),
  op('GET', '/v1beta/models', 'Gemini', 'key', 'Models, in Google’s shape'),
  op('GET', '/v1beta/models/*', 'Gemini', 'key', 'One model, in Google’s shape'),
  op(
    'POST',
    '/v1beta/models/*',
    'Gemini',
    'key',
    '{model}:generateContent, :streamGenerateContent or :countTokens',
    {
      body: 'GeminiGenerateContentRequest',
      query: ['alt', 'key'],
    },
  ),
  op('POST', '/v1/models/*', 'Gemini', 'key', 'The Gemini actions under /v1/models/{model}:{action}', {
    body: 'GeminiGenerateContentRequest',
    query: ['alt', 'key'],
  }),
  ...['', '/v1'].flatMap((prefix) => [
    op(
      'GET',
      `${prefix}/dashboard/billing/subscription`,
      'Billing',
      'key',
      "The key's (or user's) quota in USD",
    ),
    op('GET', `${prefix}/dashboard/billing/usage`, 'Billing', 'key', 'Usage in cents over a range', {
      query: ['start_date', 'end_date'],
    }),
  ]),
  ...NOT_IMPLEMENTED.map(([method, route]) =>
    op(method, route, 'Not served', 'key', 'An OpenAI endpoint this gateway does not serve (501)'),
  ),
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).map((method) =>
    op(
      method,
      '/v1/oneapi/proxy/*',
      'Not served',
      'key',
      "one-api's unbilled pass-through to Proxy channels (501)",
    ),
  ),
];
