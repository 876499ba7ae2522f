import { z } from 'zod';

/**
 * The relay's request bodies as the API reference describes them: the fields the gateway reads or
 * requires. Every other field is allowed and passed on to the provider (the objects are loose); the
 * relay itself checks bodies in its own code, so these only document.
 */
const part = z.looseObject({ type: z.string() });
const openAiMessage = z.looseObject({
  role: z.string().describe('system, developer, user, assistant or tool'),
  content: z.union([z.string(), z.array(part), z.null()]).optional(),
});
const tool = z.looseObject({ type: z.string() });

export const chatCompletionRequest = z.looseObject({
  model: z.string(),
  messages: z.array(openAiMessage).min(1),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().optional(),
  max_completion_tokens: z.number().int().optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  n: z.number().int().optional(),
  tools: z.array(tool).optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
});

export const completionRequest = z.looseObject({
  model: z.string(),
  prompt: z.union([z.string(), z.array(z.string())]),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().optional(),
});

const textOrTexts = z.union([
  z.string(),
  z.array(z.string()),
  z.array(z.number()),
  z.array(z.array(z.number())),
]);

export const embeddingRequest = z.looseObject({
  model: z.string().optional().describe('required except on /v1/engines/{model}/embeddings'),
  input: textOrTexts,
});

export const rerankRequest = z.looseObject({
  model: z.string(),
  query: z.string().min(1),
  documents: z
    .array(z.union([z.string(), z.looseObject({ text: z.string() })]))
    .min(1)
    .max(1000)
    .describe('texts, or {text} objects; at most 1,000'),
  top_n: z.number().int().min(1).optional(),
  return_documents: z.boolean().optional().describe('each result then carries its document as {text}'),
  max_tokens_per_doc: z.number().int().min(1).optional().describe('passed on to Cohere'),
});

export const moderationRequest = z.looseObject({ model: z.string().optional(), input: textOrTexts });

export const imageGenerationRequest = z.looseObject({
  model: z.string().optional(),
  prompt: z.string(),
  n: z.number().int().optional(),
  size: z.string().optional(),
  response_format: z.string().optional(),
});

const binary = z.string().meta({ format: 'binary' });

/** multipart/form-data; several pictures (GPT image models) go as `image[]`. */
export const imageEditRequest = z.looseObject({
  image: binary.describe('the picture to edit; GPT image models take up to 16 as image[]'),
  'image[]': binary.optional(),
  mask: binary.optional(),
  prompt: z.string(),
  model: z.string().optional().describe('dall-e-2 when not given'),
  n: z.string().optional(),
  size: z.string().optional(),
  quality: z.string().optional(),
  response_format: z.string().optional(),
  background: z.string().optional(),
  input_fidelity: z.string().optional(),
  output_format: z.string().optional(),
  user: z.string().optional(),
});

/** multipart/form-data */
export const imageVariationRequest = z.looseObject({
  image: binary,
  model: z.string().optional().describe('dall-e-2 when not given'),
  n: z.string().optional(),
  size: z.string().optional(),
  response_format: z.string().optional(),
  user: z.string().optional(),
});

/** OpenAI's POST /v1/videos, as JSON or as a form with the `input_reference` image. */
export const videoRequest = z.looseObject({
  model: z.string().optional(),
  prompt: z.string(),
  seconds: z.string().optional(),
  size: z.string().optional(),
  input_reference: z.string().optional(),
});

/** Google's models/{model}:predictLongRunning (Veo): one instance, one video. */
export const veoPredictRequest = z.looseObject({
  instances: z.array(
    z.looseObject({
      prompt: z.string(),
      image: z.looseObject({ bytesBase64Encoded: z.string(), mimeType: z.string().optional() }).optional(),
    }),
  ),
  parameters: z
    .looseObject({
      durationSeconds: z.number().int().optional(),
      aspectRatio: z.string().optional(),
      resolution: z.string().optional(),
      sampleCount: z.literal(1).optional(),
    })
    .optional(),
});

export const speechRequest = z.looseObject({
  model: z.string(),
  input: z.string(),
  voice: z.string(),
  response_format: z.string().optional(),
  speed: z.number().optional(),
});

/** multipart/form-data */
export const transcriptionRequest = z.looseObject({
  file: z.string().meta({ format: 'binary' }),
  model: z.string(),
  language: z.string().optional(),
  prompt: z.string().optional(),
  response_format: z.string().optional(),
  temperature: z.string().optional(),
});

const anthropicMessage = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(part)]),
});
const anthropicSystem = z.union([z.string(), z.array(part)]).optional();

export const anthropicMessagesRequest = z.looseObject({
  model: z.string(),
  max_tokens: z.number().int(),
  messages: z.array(anthropicMessage),
  system: anthropicSystem,
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({})).optional(),
});

export const anthropicCountTokensRequest = z.looseObject({
  model: z.string(),
  messages: z.array(anthropicMessage),
  system: anthropicSystem,
  tools: z.array(z.looseObject({})).optional(),
});

export const responsesRequest = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(z.looseObject({}))]).optional(),
  instructions: z.string().optional(),
  stream: z.boolean().optional(),
  max_output_tokens: z.number().int().optional(),
  tools: z.array(tool).optional(),
  store: z.boolean().optional(),
});

export const geminiGenerateContentRequest = z.looseObject({
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(z.looseObject({})) })),
  systemInstruction: z.looseObject({}).optional(),
  generationConfig: z.looseObject({}).optional(),
  tools: z.array(z.looseObject({})).optional(),
});
