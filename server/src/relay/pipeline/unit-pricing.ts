import type { Price } from '../../domain/billing';
import { RelayError } from '../errors';
import type { RelayRequest } from './relay-request';

const SPEECH_INPUT_MAX_BYTES = 4096;

/** Price multipliers by image size (dall-e-3 HD doubles 1024² and adds half to the wide sizes). */
const IMAGE_SIZE_RATIOS: Record<string, Record<string, number>> = {
  'dall-e-2': { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 },
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 },
};
const IMAGE_COUNT_LIMITS: Record<string, [number, number]> = { 'dall-e-2': [1, 10], 'dall-e-3': [1, 1] };
const IMAGE_PROMPT_LIMITS: Record<string, number> = { 'dall-e-2': 1000, 'dall-e-3': 4000 };

const invalid = (message: string, code: string) => RelayError.invalid(message, code);

function imageQuota(request: RelayRequest, price: Price): number {
  const body = request.body ?? {};
  const size = typeof body.size === 'string' ? body.size : '1024x1024';
  const n = body.n === undefined ? 1 : Number(body.n);
  const sizes = IMAGE_SIZE_RATIOS[request.model];
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
  if (promptLimit && String(body.prompt ?? '').length > promptLimit) {
    throw invalid(`The prompt must be at most ${promptLimit} characters`, 'prompt_too_long');
  }
  let sizeRatio = sizes?.[size] ?? 1;
  if (request.model === 'dall-e-3' && body.quality === 'hd') sizeRatio *= size === '1024x1024' ? 2 : 1.5;
  return Math.floor(price.ratio * sizeRatio * 1000) * n;
}

/**
 * Calls priced per unit rather than per token: images (per picture and size) and speech (per input
 * byte). Answers undefined for token-priced calls.
 */
export function unitQuota(request: RelayRequest, price: Price): number | undefined {
  if (request.mode === 'images') return imageQuota(request, price);
  if (request.mode === 'audio-speech') {
    const bytes = Buffer.byteLength(String(request.body?.input ?? ''));
    if (bytes > SPEECH_INPUT_MAX_BYTES)
      throw invalid(`input must be at most ${SPEECH_INPUT_MAX_BYTES} bytes`, 'text_too_long');
    return Math.floor(bytes * price.ratio);
  }
  return undefined;
}
