import { ChannelTypeId } from '@switchyard/contract/channel-types';
import { channelBaseUrl } from '@switchyard/contract/channels';
import type { ChannelRow } from '../../../db/schema';
import { RelayError } from '../../errors';
import { configTextOrOther } from '../channel-config';

/** Azure's realtime preview API version when the channel names none. */
const AZURE_REALTIME_API_VERSION = '2024-10-01-preview';

/** The channel types whose providers speak the Realtime API. */
const REALTIME_TYPES: ReadonlySet<number> = new Set([ChannelTypeId.openai, ChannelTypeId.azure]);

export const speaksRealtime = (channel: Pick<ChannelRow, 'type'>): boolean =>
  REALTIME_TYPES.has(channel.type);

/** Where a realtime session or a key mint goes, and with which headers. */
export interface RealtimeEndpoint {
  url: string;
  headers: Record<string, string>;
}

const isAzure = (channel: ChannelRow) => channel.type === ChannelTypeId.azure;

const apiVersionOf = (channel: ChannelRow): string =>
  configTextOrOther({ channel }, 'api_version') ?? AZURE_REALTIME_API_VERSION;

/** Azure names deployments after the model without its dots, as its other endpoints do. */
const deploymentOf = (model: string) => model.replace(/\./g, '');

const authOf = (channel: ChannelRow): Record<string, string> =>
  isAzure(channel) ? { 'api-key': channel.key } : { authorization: `Bearer ${channel.key}` };

function refuseOtherTypes(channel: ChannelRow): void {
  if (!speaksRealtime(channel)) {
    throw RelayError.invalid(
      'The channel serving this model does not speak the Realtime API (OpenAI and Azure OpenAI channels do)',
      'unsupported_mode',
    );
  }
}

/**
 * The provider's realtime WebSocket: OpenAI's `wss://…/v1/realtime?model=…` with the channel's key as
 * a bearer token, Azure's `wss://{resource}/openai/realtime?api-version=…&deployment=…` with
 * `api-key`. `beta`: the client asked for the beta interface (`OpenAI-Beta: realtime=v1`).
 */
export function realtimeSocketEndpoint(channel: ChannelRow, model: string, beta: boolean): RealtimeEndpoint {
  refuseOtherTypes(channel);
  const base = channelBaseUrl(channel).replace(/^http(s?):\/\//i, 'ws$1://');
  const headers = authOf(channel);
  if (beta) headers['openai-beta'] = 'realtime=v1';
  if (isAzure(channel)) {
    const query = new URLSearchParams({
      'api-version': apiVersionOf(channel),
      deployment: deploymentOf(model),
    });
    return { url: `${base}/openai/realtime?${query}`, headers };
  }
  return { url: `${base}/v1/realtime?${new URLSearchParams({ model })}`, headers };
}

/** Which mint: the beta's `/realtime/sessions`, or the GA interface's `/realtime/client_secrets`. */
export type EphemeralKeyKind = 'sessions' | 'client_secrets';

/** The provider's endpoint that mints an ephemeral client key (Azure's under its preview API version). */
export function ephemeralKeyEndpoint(channel: ChannelRow, kind: EphemeralKeyKind): RealtimeEndpoint {
  refuseOtherTypes(channel);
  const base = channelBaseUrl(channel);
  const headers = { ...authOf(channel), 'content-type': 'application/json' };
  if (isAzure(channel)) {
    const path = kind === 'sessions' ? 'openai/realtimeapi/sessions' : 'openai/v1/realtime/client_secrets';
    const query =
      kind === 'sessions' ? `?${new URLSearchParams({ 'api-version': apiVersionOf(channel) })}` : '';
    return { url: `${base}/${path}${query}`, headers };
  }
  return { url: `${base}/v1/realtime/${kind}`, headers };
}
