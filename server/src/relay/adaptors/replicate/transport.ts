import type { ClientSignal } from '../../client-signal';
import { clientClosed, RelayError } from '../../errors';
import type { UpstreamClient, UpstreamResponse } from '../../upstream';
import { answerObject } from '../answer-check';
import type { RelayCall, UpstreamRequest } from '../types';
import { wholeBody } from '../whole-body';
import { apiOrigin } from './request';
import type { Prediction } from './wire';

/** The first poll comes soon (most answers are quick); later ones back off to Replicate's suggested pace. */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 3000;

const jsonResponse = (status: number, value: unknown): UpstreamResponse => ({
  status,
  contentType: 'application/json',
  body: wholeBody(JSON.stringify(value)),
});

/** Replicate's API hosts (api. and stream.replicate.com) and the host its files are served from. */
const API_DOMAINS = ['replicate.com'];
const FILE_DOMAINS = ['replicate.com', 'replicate.delivery'];

/**
 * A URL out of Replicate's answer, followed only where Replicate is: the host the prediction was created
 * on, or Replicate's own domains over https. The key goes to API hosts only, and an answer pointing
 * elsewhere (another host, the gateway's own network) is not followed.
 */
function followable(
  call: RelayCall,
  url: string | undefined,
  domains = API_DOMAINS,
  what = 'prediction URL',
): string {
  let target: URL;
  try {
    target = new URL(url ?? '');
  } catch {
    throw RelayError.upstream(502, `Replicate answered a ${what} that is not a URL`, {
      code: 'bad_upstream_answer',
    });
  }
  const trusted =
    target.origin === apiOrigin(call) ||
    (target.protocol === 'https:' &&
      domains.some((domain) => target.hostname === domain || target.hostname.endsWith(`.${domain}`)));
  if (!trusted) {
    throw RelayError.upstream(502, `Replicate answered a ${what} on another host (${target.host})`, {
      code: 'bad_upstream_answer',
    });
  }
  return target.href;
}

function sleep(ms: number, signal: ClientSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(clientClosed());
    }
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/** A prediction that ended without an answer, as the error body parseError reads. */
const failed = (prediction: Prediction): UpstreamResponse =>
  jsonResponse(500, {
    detail: `Replicate prediction ${prediction.status}: ${String(prediction.error ?? 'no reason given')}`,
  });

const parsedPrediction = (body: Buffer): Prediction => {
  const prediction = answerObject<Prediction>(body);
  if (prediction instanceof RelayError) throw prediction;
  return prediction;
};

/** Polls the prediction until it succeeds or ends otherwise; the call's time budget bounds the wait. */
async function awaitPrediction(
  call: RelayCall,
  first: Prediction,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<{ done: Prediction } | { response: UpstreamResponse }> {
  let prediction = first;
  let pause = FIRST_POLL_MS;
  for (;;) {
    if (prediction.status === 'succeeded') return { done: prediction };
    if (prediction.status === 'failed' || prediction.status === 'canceled')
      return { response: failed(prediction) };
    const url = followable(call, prediction.urls?.get);
    await sleep(pause, signal);
    pause = Math.min(pause * 2, MAX_POLL_MS);
    const response = await http.send(
      { url, method: 'GET', headers: { authorization: `Bearer ${call.apiKey}`, accept: 'application/json' } },
      signal,
    );
    if (response.status !== 200) return { response };
    prediction = parsedPrediction(await http.readWhole(response.body));
  }
}

/** Pictures asked for as base64 are downloaded (Replicate's file URLs need no key). */
async function withImagesInline(
  call: RelayCall,
  prediction: Prediction,
  signal: ClientSignal,
  http: UpstreamClient,
) {
  const urls = (Array.isArray(prediction.output) ? prediction.output : [prediction.output]).filter(
    (url): url is string => typeof url === 'string',
  );
  const images: string[] = [];
  for (const url of urls) {
    const response = await http.send(
      { url: followable(call, url, FILE_DOMAINS, 'picture URL'), method: 'GET', headers: {} },
      signal,
    );
    const bytes = await http.readWhole(response.body);
    if (response.status !== 200) {
      throw RelayError.upstream(
        502,
        `Replicate's picture could not be downloaded (status ${response.status})`,
      );
    }
    images.push(bytes.toString('base64'));
  }
  return { ...prediction, images_b64: images };
}

/**
 * A call that wants the whole answer asks Replicate to hold its answer until the prediction is done
 * (`Prefer: wait`, at most 60 s), within what is left of the call's time budget; polling goes on after.
 */
function waitingFor(request: UpstreamRequest, http: UpstreamClient): UpstreamRequest {
  const seconds = Math.max(1, Math.min(60, Math.floor(http.remainingMs() / 1000) - 1));
  return { ...request, headers: { ...request.headers, prefer: `wait=${seconds}` } };
}

/**
 * Creates the prediction, then: a stream reads the prediction's event stream while it runs; any
 * other call waits for the end (polling `urls.get`) and answers the finished prediction.
 */
export async function sendToReplicate(
  request: UpstreamRequest,
  call: RelayCall,
  signal: ClientSignal,
  http: UpstreamClient,
): Promise<UpstreamResponse> {
  const created = await http.send(call.isStream ? request : waitingFor(request, http), signal);
  if (created.status !== 200 && created.status !== 201) return created;
  const prediction = parsedPrediction(await http.readWhole(created.body));
  if (call.isStream) {
    if (!prediction.urls?.stream) {
      throw RelayError.invalid(
        `Replicate model ${call.upstreamModel} does not stream its answers`,
        'stream_not_supported',
      );
    }
    const headers = {
      authorization: `Bearer ${call.apiKey}`,
      accept: 'text/event-stream',
      'cache-control': 'no-store',
    };
    return http.send({ url: followable(call, prediction.urls.stream), method: 'GET', headers }, signal);
  }
  const finished = await awaitPrediction(call, prediction, signal, http);
  if ('response' in finished) return finished.response;
  const answer =
    call.mode === 'images' && call.body?.response_format === 'b64_json'
      ? await withImagesInline(call, finished.done, signal, http)
      : finished.done;
  return jsonResponse(200, answer);
}
