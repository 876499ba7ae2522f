import { createHash } from 'node:crypto';
import type http from 'node:http';
import { Busboy } from '@fastify/busboy';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

/** A file of a form as the fake received it: its bytes' SHA-256, so a test can check they came intact. */
export interface ReceivedFile {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface ReceivedForm {
  path: string;
  /** Every text field, repeated names kept in order. */
  fields: Array<[string, string]>;
  files: ReceivedFile[];
}

/** gpt-image-1's usage object, as its edits answer it. */
export interface GptImageUsage {
  textTokens: number;
  imageTokens: number;
  outputTokens: number;
}

export interface FakeImagesOptions {
  /** Reported for GPT image models; `null` answers without usage. */
  usage?: GptImageUsage | null;
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Reads a multipart body as OpenAI's servers do: fields and whole files. */
export function parseForm(request: RecordedRequest): Promise<ReceivedForm> {
  return new Promise((resolve, reject) => {
    const form: ReceivedForm = { path: request.url.split('?')[0] ?? '', fields: [], files: [] };
    const parser = new Busboy({ headers: { 'content-type': String(request.headers['content-type'] ?? '') } });
    parser.on('field', (name, value) => form.fields.push([name, value]));
    parser.on('file', (field, file, filename, _encoding, contentType) => {
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('end', () => {
        const bytes = Buffer.concat(chunks);
        form.files.push({ field, filename, contentType, size: bytes.length, sha256: sha256(bytes) });
      });
    });
    parser.on('error', reject);
    parser.on('finish', () => resolve(form));
    parser.end(request.raw);
  });
}

const PICTURE = Buffer.from('\x89PNG fake picture bytes').toString('base64');

const invalid = (res: http.ServerResponse, message: string, param: string) =>
  sendJson(res, 400, { error: { message, type: 'invalid_request_error', param, code: null } });

/**
 * OpenAI's /v1/images/edits and /v1/images/variations (and Azure's deployment paths to them), and
 * /v1/images/generations (JSON in):
 * multipart in, `{created, data: [{url | b64_json}]}` out, with `usage` for GPT image models. It
 * refuses what OpenAI refuses: no image, an edit without a prompt. Each form it read is kept in `forms`.
 */
export function openAiImagesHandler(forms: ReceivedForm[], options: FakeImagesOptions = {}): FakeHandler {
  const usage =
    options.usage === undefined ? { textTokens: 20, imageTokens: 323, outputTokens: 4160 } : options.usage;
  const usageObject = () =>
    usage && {
      usage: {
        input_tokens: usage.textTokens + usage.imageTokens,
        input_tokens_details: { text_tokens: usage.textTokens, image_tokens: usage.imageTokens },
        output_tokens: usage.outputTokens,
        total_tokens: usage.textTokens + usage.imageTokens + usage.outputTokens,
      },
    };
  return async (request, res) => {
    if (request.url.split('?')[0]?.endsWith('/images/generations')) {
      const model = String(request.json?.model ?? 'dall-e-2');
      sendJson(res, 200, {
        created: 1_700_000_000,
        data: [{ b64_json: PICTURE }],
        ...(model.startsWith('gpt-image') ? usageObject() : {}),
      });
      return;
    }
    if (!String(request.headers['content-type']).startsWith('multipart/form-data')) {
      invalid(res, 'Expected a multipart/form-data body', 'image');
      return;
    }
    const form = await parseForm(request);
    forms.push(form);
    const field = (name: string) => form.fields.find(([key]) => key === name)?.[1];
    if (!form.files.some((file) => file.field === 'image' || file.field === 'image[]')) {
      invalid(res, "Missing required parameter: 'image'.", 'image');
      return;
    }
    const edit = form.path.endsWith('/images/edits');
    if (!edit && !form.path.endsWith('/images/variations')) {
      sendJson(res, 404, { error: { message: `Unknown path ${form.path}`, type: 'invalid_request_error' } });
      return;
    }
    if (edit && !field('prompt')) {
      invalid(res, "Missing required parameter: 'prompt'.", 'prompt');
      return;
    }
    const model = field('model') ?? 'dall-e-2';
    const gptImage = model.startsWith('gpt-image');
    const n = Number(field('n') ?? 1);
    const base64 = gptImage || field('response_format') === 'b64_json';
    const data = Array.from({ length: n }, (_, index) =>
      base64 ? { b64_json: PICTURE } : { url: `https://images.example.com/${index}.png` },
    );
    sendJson(res, 200, {
      created: 1_700_000_000,
      data,
      ...(gptImage ? usageObject() : {}),
    });
  };
}
