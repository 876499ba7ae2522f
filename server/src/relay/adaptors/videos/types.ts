import type { ChannelRow } from '../../../db/schema';
import type { Json } from '../../json-value';
import type { UpstreamRequest } from '../../upstream';

/** An image the video starts from (OpenAI's `input_reference`, Veo's `instances[].image`). */
export interface VideoImage {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** What a client asked for, whichever format it spoke, the model mapping applied. */
export interface VideoCreation {
  /** The model the client named (what it is billed and listed as). */
  model: string;
  /** The model named upstream (the channel's model mapping applied). */
  upstreamModel: string;
  prompt: string;
  seconds: number;
  size: string;
  inputReference?: VideoImage;
  /** Veo's own body as a Gemini client sent it: passed through to Veo channels as it came. */
  veoBody?: Json;
}

/** The channel a job runs on: where to send and with which key. */
export interface VideoChannel {
  channel: ChannelRow;
  baseUrl: string;
}

/** A job's state as the provider reports it. */
export interface UpstreamVideoState {
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  /** 0–100. */
  progress: number;
  /** The length the provider says it made, when it says. */
  seconds?: number;
  /** The provider's reason, when it failed. */
  error?: string;
}

/** What a job's result can be downloaded as (OpenAI's `variant`). */
export type VideoVariant = 'video' | 'thumbnail' | 'spritesheet';

/** One provider's video wire format: the requests to make a job, look at it and fetch its result. */
export interface VideoWire {
  /** The name of the format in errors ('OpenAI videos', 'Veo'). */
  name: string;
  create(on: VideoChannel, creation: VideoCreation): Promise<UpstreamRequest>;
  /** The provider's id of the job it made (a video id, an operation name), and its first state. */
  readCreated(body: Json): { upstreamId: string; state: UpstreamVideoState } | undefined;
  poll(on: VideoChannel, upstreamId: string): UpstreamRequest;
  readState(body: Json): UpstreamVideoState | undefined;
  /**
   * The request that downloads the result. `polled` is the answer to `poll` now, for a format whose
   * download address is in the job's state (Veo); `sample` picks one of several videos (Veo's
   * sampleCount). Undefined when there is no such variant or sample.
   */
  download(
    on: VideoChannel,
    upstreamId: string,
    variant: VideoVariant,
    polled: Json,
    sample: number,
  ): UpstreamRequest | undefined;
  /** Whether `download` needs the job's state first. */
  downloadNeedsState: boolean;
}
