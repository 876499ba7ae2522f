import type { ClientSignal } from '../../client-signal';
import type { UpstreamClient, UpstreamResponse } from '../../upstream';
import type { RelayCall, UpstreamRequest } from '../types';
import { eventStreamAsSse } from './event-stream';

/**
 * Bedrock answers a stream in AWS's binary event stream: a 200 stream is re-framed as SSE events (the
 * model's own events, exceptions as error events) for the relay's stream pipeline. Everything else
 * (a whole answer, an error) is passed on as it came.
 */
export async function transport(
  request: UpstreamRequest,
  call: RelayCall,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<UpstreamResponse> {
  const response = await http.send(request, signal);
  if (!call.isStream || response.status !== 200 || response.contentType.startsWith('application/json')) {
    return response;
  }
  return { status: 200, contentType: 'text/event-stream', body: eventStreamAsSse(response.body) };
}
