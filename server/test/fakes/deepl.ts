import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

export interface FakeDeeplOptions {
  key: string;
  /** The translation answered; the fake marks the source as English. */
  translation?: string;
  /** Answer 456, DeepL's "quota exceeded". */
  quotaExceeded?: boolean;
}

/** DeepL's POST /v2/translate (JSON body, `DeepL-Auth-Key` authentication). */
export function deeplHandler(options: FakeDeeplOptions): FakeHandler {
  return (request: RecordedRequest, res: http.ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/v2/translate') {
      return sendJson(res, 404, { message: 'Not found' });
    }
    if (request.headers.authorization !== `DeepL-Auth-Key ${options.key}`) {
      return sendJson(res, 403, { message: 'Forbidden' });
    }
    if (options.quotaExceeded) return sendJson(res, 456, { message: 'Quota Exceeded' });
    const texts = Array.isArray(request.json?.text) ? request.json.text : [];
    sendJson(res, 200, {
      translations: texts.map(() => ({
        detected_source_language: 'EN',
        text: options.translation ?? 'Bonjour',
      })),
    });
  };
}
