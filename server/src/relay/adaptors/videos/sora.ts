import type { Json } from '../../json-value';
import { asObject } from '../../json-value';
import type { UpstreamRequest } from '../../upstream';
import type { UpstreamVideoState, VideoChannel, VideoCreation, VideoVariant, VideoWire } from './types';

/** The channel's base without a trailing `/v1` (the paths below carry it), as the OpenAI adaptor does. */
const rootOf = (on: VideoChannel): string => on.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
const bearer = (on: VideoChannel) => ({ authorization: `Bearer ${on.channel.key}` });

const STATUSES = new Set(['queued', 'in_progress', 'completed', 'failed']);
/** A video id as OpenAI makes them (`video_…`): short, and nothing that could leave its path segment. */
const VIDEO_ID = /^[A-Za-z0-9_-]{1,200}$/;

function stateOf(body: Json): UpstreamVideoState | undefined {
  const status = body.status;
  if (typeof status !== 'string' || !STATUSES.has(status)) return undefined;
  const progress = typeof body.progress === 'number' && Number.isFinite(body.progress) ? body.progress : 0;
  const seconds = Number(body.seconds);
  const error = asObject(body.error);
  return {
    status: status as UpstreamVideoState['status'],
    progress: Math.min(100, Math.max(0, Math.round(progress))),
    ...(Number.isFinite(seconds) && seconds > 0 ? { seconds } : {}),
    ...(error && typeof error.message === 'string' ? { error: error.message } : {}),
  };
}

/** The create request: JSON, or a multipart form when an image goes along (OpenAI takes either). */
async function createBody(creation: VideoCreation): Promise<{ body: Buffer | string; contentType: string }> {
  const fields = {
    model: creation.upstreamModel,
    prompt: creation.prompt,
    seconds: String(creation.seconds),
    size: creation.size,
  };
  const image = creation.inputReference;
  if (!image) return { body: JSON.stringify(fields), contentType: 'application/json' };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(
    'input_reference',
    new Blob([new Uint8Array(image.bytes)], { type: image.contentType }),
    image.filename,
  );
  // The form's own encoding, boundary included.
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}

/** OpenAI's `/v1/videos` (Sora): a video object with an id, polled by id, downloaded from `/content`. */
export const soraWire: VideoWire = {
  name: 'OpenAI videos',
  downloadNeedsState: false,
  async create(on, creation): Promise<UpstreamRequest> {
    const { body, contentType } = await createBody(creation);
    return {
      url: `${rootOf(on)}/v1/videos`,
      method: 'POST',
      headers: { ...bearer(on), 'content-type': contentType },
      body,
    };
  },
  readCreated(body) {
    const state = stateOf(body);
    if (typeof body.id !== 'string' || !VIDEO_ID.test(body.id) || !state) return undefined;
    return { upstreamId: body.id, state };
  },
  poll(on, upstreamId) {
    return {
      url: `${rootOf(on)}/v1/videos/${encodeURIComponent(upstreamId)}`,
      method: 'GET',
      headers: bearer(on),
    };
  },
  readState: stateOf,
  download(on, upstreamId, variant: VideoVariant) {
    return {
      url: `${rootOf(on)}/v1/videos/${encodeURIComponent(upstreamId)}/content?variant=${variant}`,
      method: 'GET',
      headers: bearer(on),
    };
  },
};
