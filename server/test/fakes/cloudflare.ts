import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';
import { type FakeOpenAiOptions, openAiHandler } from './openai';

/** Cloudflare's API envelope for a refusal. */
const refusal = (res: http.ServerResponse, status: number, code: number, message: string) =>
  sendJson(res, status, { success: false, errors: [{ code, message }], messages: [], result: null });

/** Workers AI's OpenAI-compatible endpoints under /client/v4/accounts/{account}/ai/v1/. */
export function cloudflareHandler(
  options: FakeOpenAiOptions & { token: string; account: string },
): FakeHandler {
  const openAi = openAiHandler(options);
  return (request: RecordedRequest, res: http.ServerResponse) => {
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return refusal(res, 401, 10000, 'Authentication error');
    }
    if (!request.url.startsWith(`/client/v4/accounts/${options.account}/ai/v1/`)) {
      return refusal(res, 404, 7003, 'Could not route to the requested account');
    }
    return openAi(request, res);
  };
}
