import { channelTypeById } from '@switchyard/contract/channel-types';
import type { ChannelRow } from '../../../db/schema';
import { soraWire } from './sora';
import type { VideoWire } from './types';
import { veoWire } from './veo';

/**
 * The video format a channel speaks: Gemini channels Veo's, OpenAI-compatible ones (Azure aside,
 * whose video API has another shape) OpenAI's /v1/videos; undefined for the others.
 */
export function videoWireOf(channel: Pick<ChannelRow, 'type'>): VideoWire | undefined {
  const type = channelTypeById(channel.type);
  if (type?.apiStyle === 'gemini') return veoWire;
  if (type?.apiStyle === 'openai' && type.openAi?.url === undefined) return soraWire;
  return undefined;
}
