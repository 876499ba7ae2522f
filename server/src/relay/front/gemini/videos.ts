import { videoSecondsProblem, videoSizeProblem } from '@switchyard/contract/videos';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VideoJobRow } from '../../../db/schema';
import type { VideoImage } from '../../adaptors/videos/types';
import { sizeOfVeoFrame } from '../../adaptors/videos/veo';
import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';
import type { RelayCaller } from '../../pipeline/authenticate';
import type { VideoJobs, VideoOrder } from '../../pipeline/video-jobs';
import { parseJsonObject } from '../json-body';
import { hijackedSink } from '../reply-sink';
import { sendError } from '../send-error';
import { clientSignalOf, streamContent } from '../videos/content';

/** Veo's default length. */
const VEO_DEFAULT_SECONDS = 8;
/** `models/{model}/operations/{job}`, the name our operations have. */
const OPERATION_PATH = /^(?:models\/)?([^/]+)\/operations\/([^/]+)$/;
/** `files/{job}-{sample}:download`, where our operations' videos are downloaded. */
const FILE_PATH = /^([A-Za-z0-9_]+)-(\d):download$/;

interface GeminiCaller {
  requestId: string;
  caller: RelayCaller;
}

const invalid = (message: string) => RelayError.invalid(message, 'invalid_video_request');

function imageOf(instance: Json): VideoImage | undefined {
  const image = asObject(instance.image);
  if (!image) return undefined;
  if (typeof image.bytesBase64Encoded !== 'string')
    throw invalid('instances[0].image needs bytesBase64Encoded');
  return {
    bytes: Buffer.from(image.bytesBase64Encoded, 'base64'),
    filename: 'image',
    contentType: typeof image.mimeType === 'string' ? image.mimeType : 'image/png',
  };
}

/** A predictLongRunning body (instances[0].prompt, parameters) as a video order; one video per job. */
export function veoOrderOf(model: string, body: Json): VideoOrder {
  const instances = Array.isArray(body.instances) ? body.instances : [];
  const instance = asObject(instances[0]);
  if (instances.length !== 1 || !instance) throw invalid('instances must hold exactly one instance');
  const prompt = instance.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') throw invalid('instances[0].prompt is required');
  const parameters = asObject(body.parameters) ?? {};
  if (parameters.sampleCount !== undefined && parameters.sampleCount !== 1) {
    throw invalid('sampleCount must be 1: this gateway makes one video per operation');
  }
  const seconds =
    parameters.durationSeconds === undefined ? VEO_DEFAULT_SECONDS : Number(parameters.durationSeconds);
  const secondsProblem = Number.isFinite(seconds)
    ? videoSecondsProblem(model, seconds)
    : 'durationSeconds must be a number';
  if (secondsProblem) throw invalid(secondsProblem.replace(/^seconds/, 'durationSeconds'));
  const size = sizeOfVeoFrame(parameters.aspectRatio, parameters.resolution);
  const sizeProblem = videoSizeProblem(model, size);
  if (sizeProblem) throw invalid(sizeProblem);
  const image = imageOf(instance);
  return { model, prompt, seconds, size, veoBody: body, ...(image ? { inputReference: image } : {}) };
}

/** Our job as Google's long-running operation; a finished one names its video at this gateway. */
export function operationOf(job: VideoJobRow, origin: string): Json {
  const name = `models/${job.model}/operations/${job.id}`;
  if (job.status === 'completed') {
    return {
      name,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse: {
          generatedSamples: [{ video: { uri: `${origin}/v1beta/files/${job.id}-0:download?alt=media` } }],
        },
      },
    };
  }
  if (job.status === 'failed' || job.status === 'expired') {
    return { name, done: true, error: { code: job.status === 'expired' ? 4 : 13, message: job.error } };
  }
  return { name, done: false };
}

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** POST models/{model}:predictLongRunning: a video job, answered as its operation. */
export async function predictLongRunning(
  videoJobs: VideoJobs,
  model: string,
  request: FastifyRequest,
  reply: FastifyReply,
  { requestId, caller }: GeminiCaller,
): Promise<void> {
  const sink = hijackedSink(reply, requestId);
  try {
    const job = await videoJobs.create(caller, veoOrderOf(model, parseJsonObject(request.body)), sink);
    sink.json(200, operationOf(job, originOf(request)));
  } catch (error) {
    sendError(reply, requestId, error, request.log, 'gemini');
  }
}

/** Whether a GET under /v1beta/models/ names one of our operations. */
export const isOperationPath = (path: string): boolean => OPERATION_PATH.test(path);

/** GET models/{model}/operations/{job}: the operation now (charged once it is done). */
export async function getOperation(
  videoJobs: VideoJobs,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
  { requestId, caller }: GeminiCaller,
): Promise<void> {
  try {
    const id = OPERATION_PATH.exec(path)?.[2] ?? '';
    const job = await videoJobs.refresh(await videoJobs.owned(caller, id), clientSignalOf(reply));
    reply.header('x-oneapi-request-id', requestId).send(operationOf(job, originOf(request)));
  } catch (error) {
    sendError(reply.hijack(), requestId, error, request.log, 'gemini');
  }
}

/** GET files/{job}-{sample}:download: the video, streamed from the job's channel with its key. */
export async function downloadVideo(
  videoJobs: VideoJobs,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
  { requestId, caller }: GeminiCaller,
): Promise<void> {
  try {
    const match = FILE_PATH.exec(path);
    if (!match) throw RelayError.invalid(`files/${path} is not found`, 'file_not_found', { status: 404 });
    const signal = clientSignalOf(reply);
    const job = await videoJobs.refresh(await videoJobs.owned(caller, match[1] ?? ''), signal);
    const response = await videoJobs.content(job, 'video', Number(match[2]), signal);
    await streamContent(reply.hijack(), requestId, response);
  } catch (error) {
    sendError(reply.hijack(), requestId, error, request.log, 'gemini');
  }
}
