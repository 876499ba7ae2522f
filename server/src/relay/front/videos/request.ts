import { Busboy } from '@fastify/busboy';
import {
  DEFAULT_VIDEO_SIZE,
  defaultVideoSeconds,
  videoSecondsProblem,
  videoSizeProblem,
} from '@switchyard/contract/videos';
import type { VideoImage } from '../../adaptors/videos/types';
import { RelayError } from '../../errors';
import type { Json } from '../../json-value';
import type { VideoOrder } from '../../pipeline/video-jobs';
import { parseJsonObject } from '../json-body';

/** The longest prompt taken (OpenAI's own limit is far below it). */
const PROMPT_MAX_CHARS = 32_000;
/** Bounds on what a form may make the parser hold; the body itself is already bounded (RELAY_BODY_LIMIT). */
const FORM_LIMITS = {
  fields: 32,
  fieldSize: 64 * 1024,
  fieldNameSize: 200,
  files: 1,
  parts: 64,
  headerPairs: 20,
};

const invalid = (message: string, param: string) =>
  RelayError.invalid(message, 'invalid_video_request', { param });

interface VideoForm {
  fields: Map<string, string>;
  image?: VideoImage;
}

/** A multipart form's fields and its one `input_reference` file. */
function readForm(raw: Buffer, contentType: string): Promise<VideoForm> {
  return new Promise((resolve, reject) => {
    const form: VideoForm = { fields: new Map() };
    const refuse = (why: string) =>
      reject(RelayError.invalid(`The multipart form could not be read: ${why}`, 'invalid_multipart'));
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({ headers: { 'content-type': contentType }, limits: FORM_LIMITS });
    } catch (error) {
      refuse((error as Error).message);
      return;
    }
    parser.on('field', (name, value) => {
      if (!form.fields.has(name)) form.fields.set(name, value);
    });
    parser.on('file', (name, file, filename, _encoding, mimeType) => {
      if (name !== 'input_reference') {
        file.resume();
        return;
      }
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('end', () => {
        form.image = {
          bytes: Buffer.concat(chunks),
          filename: filename || 'input_reference',
          contentType: mimeType || 'application/octet-stream',
        };
      });
    });
    parser.on('error', (error: Error) => refuse(error.message));
    parser.on('finish', () => resolve(form));
    parser.end(raw);
  });
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** model, prompt, seconds and size, checked; the defaults OpenAI applies (sora-2, 4 s, 720x1280). */
export function videoOrderOf(fields: (name: string) => unknown, image?: VideoImage): VideoOrder {
  const model = text(fields('model')) ?? 'sora-2';
  if (!model || model.length > 191) throw invalid('model must be a model name', 'model');
  const prompt = fields('prompt');
  if (typeof prompt !== 'string' || prompt.trim() === '') throw invalid('prompt is required', 'prompt');
  if (prompt.length > PROMPT_MAX_CHARS) {
    throw invalid(`prompt must be at most ${PROMPT_MAX_CHARS} characters`, 'prompt');
  }
  const secondsText = text(fields('seconds'));
  const seconds = secondsText === undefined ? defaultVideoSeconds(model) : Number(secondsText);
  const secondsProblem = Number.isFinite(seconds)
    ? videoSecondsProblem(model, seconds)
    : 'seconds must be a number';
  if (secondsProblem) throw invalid(secondsProblem, 'seconds');
  const size = text(fields('size')) ?? DEFAULT_VIDEO_SIZE;
  const sizeProblem = videoSizeProblem(model, size);
  if (sizeProblem) throw invalid(sizeProblem, 'size');
  return { model, prompt, seconds, size, ...(image ? { inputReference: image } : {}) };
}

/** POST /v1/videos: a JSON body, or a multipart form with the `input_reference` image. */
export async function readVideoOrder(body: unknown, contentType: string): Promise<VideoOrder> {
  if (contentType.startsWith('multipart/form-data')) {
    const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    const form = await readForm(raw, contentType);
    return videoOrderOf((name) => form.fields.get(name), form.image);
  }
  const json: Json = parseJsonObject(body);
  return videoOrderOf((name) => json[name]);
}
