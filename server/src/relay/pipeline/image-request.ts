import { isTokenPricedImageModel } from '@switchyard/contract/model-kinds';
import type { RelayMode, Usage } from '../adaptors/types';
import { RelayError } from '../errors';
import type { FormSummary } from './multipart-form';

/** What these rules read of a call (fields of its RelayRequest, which is built with them). */
interface ImageCall {
  mode: RelayMode;
  model: string;
  body: Record<string, unknown> | undefined;
  form?: FormSummary;
}

/** The calls that make pictures: generations (JSON), edits and variations (multipart forms). */
const IMAGE_MODES: ReadonlySet<RelayMode> = new Set(['images', 'image-edit', 'image-variation']);

export const isImageMode = (mode: RelayMode): boolean => IMAGE_MODES.has(mode);

/** What an image call asks for, wherever the client wrote it (a JSON body or a form). */
export interface ImageAsk {
  /** As the client wrote it; checked by the pricing of the model. */
  n: number;
  size: string | undefined;
  quality: string | undefined;
  prompt: string;
  inputFidelity: string | undefined;
  /** Pictures sent to edit or vary, the mask counted among them. */
  inputImages: number;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

export function imageAsk(request: ImageCall): ImageAsk {
  const fields = request.form?.fields;
  const field = (name: string): unknown => (fields ? fields.get(name) : request.body?.[name]);
  const n = field('n');
  return {
    n: n === undefined || n === '' ? 1 : Number(n),
    size: text(field('size')),
    quality: text(field('quality')),
    prompt: String(field('prompt') ?? ''),
    inputFidelity: text(field('input_fidelity')),
    inputImages: inputImagesOf(request),
  };
}

const inputImagesOf = (request: ImageCall): number => {
  const files = request.form?.files;
  if (!files) return 0;
  return (files.get('image') ?? 0) + (files.get('image[]') ?? 0) + (files.get('mask') ?? 0);
};

/** GPT image models take up to 16 pictures to edit; DALL·E and variations one. */
const MAX_INPUT_IMAGES = 16;

const invalid = (message: string, code: string, param?: string) =>
  RelayError.invalid(message, code, param ? { param } : {});

/** An edit or a variation as OpenAI takes it: a multipart form with the pictures, one mask at most. */
export function validateImageForm(request: ImageCall): void {
  const { mode, form } = request;
  if (mode !== 'image-edit' && mode !== 'image-variation') return;
  if (!form) {
    throw invalid(
      'This endpoint takes a multipart/form-data body with the image as a file',
      'invalid_multipart',
    );
  }
  const images = (form.files.get('image') ?? 0) + (form.files.get('image[]') ?? 0);
  if (images === 0)
    throw invalid('image is required: the picture, as a file of the form', 'image_missing', 'image');
  const oneOnly = mode === 'image-variation' || !isTokenPricedImageModel(request.model);
  const most = oneOnly ? 1 : MAX_INPUT_IMAGES;
  if (images > most) {
    throw invalid(
      `${request.model} takes at most ${most} image${most > 1 ? 's' : ''}`,
      'too_many_images',
      'image',
    );
  }
  if ((form.files.get('mask') ?? 0) > 1) throw invalid('Only one mask may be sent', 'too_many_masks', 'mask');
  if (mode === 'image-edit' && !form.fields.get('prompt'))
    throw invalid('prompt is required', 'prompt_missing', 'prompt');
  if (form.fields.get('stream') === 'true') {
    throw invalid('Streamed image edits are not served by this gateway', 'stream_not_supported', 'stream');
  }
}

/**
 * Output tokens of one picture of gpt-image-1 by quality and size, as OpenAI lists them; any other
 * quality (auto, standard, hd, none given) is held as high, any other size as the largest.
 */
const OUTPUT_TOKENS: Record<string, Record<string, number>> = {
  low: { '1024x1024': 272, '1024x1536': 408, '1536x1024': 400 },
  medium: { '1024x1024': 1056, '1024x1536': 1584, '1536x1024': 1568 },
  high: { '1024x1024': 4160, '1024x1536': 6240, '1536x1024': 6208 },
};

/**
 * Image tokens one input picture may cost at most: OpenAI scales a picture to a few 512-pixel tiles
 * (under a thousand tokens), and high input fidelity adds up to 6,240 more.
 */
const INPUT_IMAGE_TOKENS = { low: 1_000, high: 7_240 };

const N_LIMIT = 10;

/**
 * The most a call to a GPT image model may be billed, in tokens: every prompt byte a token (a
 * tokenizer's token is at least one byte), every input picture its ceiling, every picture asked for
 * its size's and quality's output. Undefined for other models and modes.
 */
export function imageTokenCeiling(request: ImageCall): Usage | undefined {
  if (!isImageMode(request.mode) || !isTokenPricedImageModel(request.model)) return undefined;
  const ask = imageAsk(request);
  if (!Number.isInteger(ask.n) || ask.n < 1 || ask.n > N_LIMIT)
    throw invalid(`n must be between 1 and ${N_LIMIT}`, 'n_not_within_range', 'n');
  const byQuality = OUTPUT_TOKENS[ask.quality ?? 'high'] ?? OUTPUT_TOKENS.high ?? {};
  const output = byQuality[ask.size ?? ''] ?? Math.max(...Object.values(byQuality));
  const perImage = ask.inputFidelity === 'high' ? INPUT_IMAGE_TOKENS.high : INPUT_IMAGE_TOKENS.low;
  const imageTokens = ask.inputImages * perImage;
  return {
    prompt_tokens: Buffer.byteLength(ask.prompt) + imageTokens,
    completion_tokens: ask.n * output,
    ...(imageTokens > 0 ? { prompt_image_tokens: imageTokens } : {}),
  };
}
