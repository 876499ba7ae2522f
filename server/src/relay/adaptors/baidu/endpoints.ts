import { WORKSHOP_PATH } from './wire';

/**
 * The service name each model answers under (`…/chat/<endpoint>`, `…/embeddings/<endpoint>`), as
 * Baidu publishes them and one-api routes them. Keys are lower case so a model is found whatever its case;
 * a model not listed uses its own name in lower case, which is Baidu's rule for the newer services.
 */
const ENDPOINTS: Record<string, string> = {
  // ERNIE 4.0
  'ernie-4.0-8k': 'completions_pro',
  'ernie-4.0': 'completions_pro',
  'ernie-bot-4': 'completions_pro',
  // ERNIE 3.5
  'ernie-3.5-8k': 'completions',
  'ernie-bot': 'completions',
  'ernie-3.5-8k-0205': 'ernie-3.5-8k-0205',
  'ernie-3.5-8k-1222': 'ernie-3.5-8k-1222',
  'ernie-bot-8k': 'ernie_bot_8k',
  'ernie-3.5-4k-0205': 'ernie-3.5-4k-0205',
  // ERNIE Speed, Lite, Tiny
  'ernie-speed-8k': 'ernie_speed',
  'ernie-speed': 'ernie_speed',
  'ernie-speed-128k': 'ernie-speed-128k',
  'ernie-lite-8k-0922': 'eb-instant',
  'ernie-bot-turbo': 'eb-instant',
  'ernie-lite-8k-0308': 'ernie-lite-8k',
  'ernie-tiny-8k': 'ernie-tiny-8k',
  'ernie-functions-8k': 'ernie-func-8k',
  // Third-party models hosted by Qianfan
  'bloomz-7b': 'bloomz_7b1',
  // Embeddings
  'embedding-v1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

export function endpointOf(model: string): string {
  const name = model.toLowerCase();
  return ENDPOINTS[name] ?? name;
}

/** The service URL of a model, without the access token. */
export function serviceUrl(baseUrl: string, kind: 'chat' | 'embeddings', model: string): string {
  return `${baseUrl}${WORKSHOP_PATH}/${kind}/${encodeURIComponent(endpointOf(model))}`;
}
