import { isTokenPricedImageModel } from '@switchyard/contract/model-kinds';
import {
  DEFAULT_PICTURE_SIZE,
  type PicturesBilled,
  type Price,
  pictureQuota,
  pictureSizes,
} from '../../domain/billing';
import { RelayError } from '../errors';
import { imageAsk, isImageMode } from './image-request';
import type { RelayRequest } from './relay-request';

const SPEECH_INPUT_MAX_BYTES = 4096;

const IMAGE_COUNT_LIMITS: Record<string, [number, number]> = { 'dall-e-2': [1, 10], 'dall-e-3': [1, 1] };
const IMAGE_PROMPT_LIMITS: Record<string, number> = { 'dall-e-2': 1000, 'dall-e-3': 4000 };

const invalid = (message: string, code: string) => RelayError.invalid(message, code);

/** The longest size or quality a log's facts keep (contract/log-facts). */
const FACT_TEXT_MAX = 32;

function imageQuota(request: RelayRequest, price: Price): number {
  const { n, quality, prompt, ...ask } = imageAsk(request);
  const size = ask.size ?? DEFAULT_PICTURE_SIZE;
  const sizes = pictureSizes(request.model);
  if (sizes && sizes[size] === undefined) {
    throw invalid(
      `size ${size} is not supported by ${request.model}; use one of ${Object.keys(sizes).join(', ')}`,
      'size_not_supported',
    );
  }
  const [min, max] = IMAGE_COUNT_LIMITS[request.model] ?? [1, 10];
  if (!Number.isInteger(n) || n < min || n > max)
    throw invalid(`n must be between ${min} and ${max}`, 'n_not_within_range');
  const promptLimit = IMAGE_PROMPT_LIMITS[request.model];
  if (promptLimit && prompt.length > promptLimit) {
    throw invalid(`The prompt must be at most ${promptLimit} characters`, 'prompt_too_long');
  }
  return pictureQuota(price, request.model, size, quality) * n;
}

/** Pictures priced per unit: what the call's log says it paid for. Undefined for other calls. */
export function picturesBilled(request: RelayRequest): PicturesBilled | undefined {
  if (!isImageMode(request.mode) || isTokenPricedImageModel(request.model)) return undefined;
  const { n, size, quality } = imageAsk(request);
  // As the client wrote them (models without a size table take any): cut to what the facts keep.
  const words = (text: string) => text.slice(0, FACT_TEXT_MAX);
  return {
    count: n,
    size: words(size ?? DEFAULT_PICTURE_SIZE),
    ...(quality ? { quality: words(quality) } : {}),
  };
}

/**
 * Calls priced per unit rather than per token: DALL·E pictures (per picture and size; generations,
 * edits and variations) and speech (per input byte). Answers undefined for token-priced calls, GPT
 * image models among them (see image-request).
 */
export function unitQuota(request: RelayRequest, price: Price): number | undefined {
  if (isImageMode(request.mode) && !isTokenPricedImageModel(request.model)) return imageQuota(request, price);
  if (request.mode === 'audio-speech') {
    const bytes = Buffer.byteLength(String(request.body?.input ?? ''));
    if (bytes > SPEECH_INPUT_MAX_BYTES)
      throw invalid(`input must be at most ${SPEECH_INPUT_MAX_BYTES} bytes`, 'text_too_long');
    return Math.floor(bytes * price.ratio);
  }
  return undefined;
}
