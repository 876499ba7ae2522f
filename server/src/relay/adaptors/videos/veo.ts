import { asObject, type Json } from '../../json-value';
import type { UpstreamRequest } from '../../upstream';
import { authHeaders } from '../gemini/auth';
import type { UpstreamVideoState, VideoChannel, VideoCreation, VideoWire } from './types';

const rootOf = (on: VideoChannel): string => on.baseUrl.replace(/\/+$/, '');

/** An operation name as Google makes them (`models/veo-…/operations/…`): nothing that could leave the path. */
const OPERATION_NAME = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,400}$/;
const isOperationName = (name: string) => OPERATION_NAME.test(name) && !name.includes('..');

/** `1280x720` ↔ Veo's aspect ratio and resolution. */
export function veoFrame(size: string): { aspectRatio: string; resolution: string } {
  const [width = 0, height = 0] = size.split('x').map(Number);
  return {
    aspectRatio: width >= height ? '16:9' : '9:16',
    resolution: Math.min(width, height) >= 1080 ? '1080p' : '720p',
  };
}

export function sizeOfVeoFrame(aspectRatio: unknown, resolution: unknown): string {
  const full = resolution === '1080p';
  return aspectRatio === '9:16' ? (full ? '1080x1920' : '720x1280') : full ? '1920x1080' : '1280x720';
}

function requestBody(creation: VideoCreation): Json {
  if (creation.veoBody) return creation.veoBody;
  const image = creation.inputReference;
  return {
    instances: [
      {
        prompt: creation.prompt,
        ...(image
          ? { image: { bytesBase64Encoded: image.bytes.toString('base64'), mimeType: image.contentType } }
          : {}),
      },
    ],
    parameters: { durationSeconds: creation.seconds, ...veoFrame(creation.size) },
  };
}

/** The videos a finished operation made, in Google's shape. */
function samplesOf(operation: Json): Json[] {
  const response = asObject(operation.response);
  const samples = asObject(response?.generateVideoResponse)?.generatedSamples;
  return Array.isArray(samples) ? samples.map((sample) => asObject(sample) ?? {}) : [];
}

function stateOf(operation: Json): UpstreamVideoState | undefined {
  if (typeof operation.name !== 'string') return undefined;
  if (operation.done !== true) return { status: 'in_progress', progress: 0 };
  const error = asObject(operation.error);
  if (error) {
    return { status: 'failed', progress: 100, error: String(error.message ?? 'the operation failed') };
  }
  if (samplesOf(operation).length === 0) {
    // Google's safety filters end an operation with no video and say why.
    const reasons = asObject(asObject(operation.response)?.generateVideoResponse)?.raiMediaFilteredReasons;
    const why = Array.isArray(reasons) && reasons.length > 0 ? reasons.join('; ') : 'no video was made';
    return { status: 'failed', progress: 100, error: why };
  }
  return { status: 'completed', progress: 100 };
}

/**
 * Google's Veo on the Gemini API: `models/{model}:predictLongRunning` answers a long-running
 * operation, polled by name; the finished one names each video's file URI, downloaded with the key.
 */
export const veoWire: VideoWire = {
  name: 'Veo',
  downloadNeedsState: true,
  async create(on, creation): Promise<UpstreamRequest> {
    return {
      url: `${rootOf(on)}/v1beta/models/${encodeURIComponent(creation.upstreamModel)}:predictLongRunning`,
      method: 'POST',
      headers: { ...authHeaders(on.channel.key), 'content-type': 'application/json' },
      body: JSON.stringify(requestBody(creation)),
    };
  },
  readCreated(operation) {
    const state = stateOf(operation);
    const name = operation.name;
    if (typeof name !== 'string' || !isOperationName(name) || !state) return undefined;
    return { upstreamId: name, state };
  },
  poll(on, upstreamId) {
    return { url: `${rootOf(on)}/v1beta/${upstreamId}`, method: 'GET', headers: authHeaders(on.channel.key) };
  },
  readState: stateOf,
  download(on, _upstreamId, variant, polled, sample) {
    if (variant !== 'video') return undefined;
    const uri = asObject(samplesOf(polled)[sample]?.video)?.uri;
    if (typeof uri !== 'string') return undefined;
    let address: URL;
    try {
      address = new URL(uri);
    } catch {
      return undefined;
    }
    // The key goes to the channel's own address only, whatever host the operation names.
    return {
      url: `${rootOf(on)}${address.pathname}${address.search}`,
      method: 'GET',
      headers: authHeaders(on.channel.key),
    };
  },
};
