import type { ClientSignal } from '../../client-signal';
import { RelayError } from '../../errors';
import type { UpstreamClient, UpstreamResponse } from '../../upstream';
import type { UpstreamRequest } from '../types';
import { asOneEventStream, wholeBody } from '../whole-body';
import { palmAnswer } from './response';

/**
 * PaLM cannot stream: a stream request gets the complete answer, handed to the relay as a one-event
 * SSE stream (one-api also answers such requests with a single chunk). An error inside that answer is
 * turned back into a failed response, so the client gets an error status and nothing is charged.
 */
export async function sendToPalm(
  request: UpstreamRequest,
  isStream: boolean,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<UpstreamResponse> {
  const response = await http.send(request, signal);
  if (!isStream || response.status !== 200) return response;
  const body = await http.readWhole(response.body);
  const answer = palmAnswer(body);
  if (answer instanceof RelayError) {
    const error = { code: answer.status, message: answer.message, status: answer.code };
    return {
      status: answer.status,
      contentType: 'application/json',
      body: wholeBody(JSON.stringify({ error })),
    };
  }
  return asOneEventStream(body);
}
