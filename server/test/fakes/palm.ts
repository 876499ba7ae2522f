import { type FakeHandler, sendJson } from './http-fake';

export interface FakePalmOptions {
  apiKey: string;
  reply?: string;
  /** Answer with no candidates and this filter, as PaLM does when it blocks. */
  blocked?: boolean;
  /** Answer every call with this Google error instead. */
  error?: { code: number; status: string; message?: string };
}

const googleError = (code: number, status: string, message: string, reason?: string) => ({
  error: { code, message, status, ...(reason ? { details: [{ reason, domain: 'googleapis.com' }] } : {}) },
});

/** A fake PaLM 2 generateMessage endpoint: checks path, key header and prompt, answers as PaLM did (no usage). */
export function palmHandler(options: FakePalmOptions): FakeHandler {
  return (request, res) => {
    if (request.method !== 'POST' || request.url !== '/v1beta2/models/chat-bison-001:generateMessage') {
      return sendJson(res, 404, googleError(404, 'NOT_FOUND', `Not found: ${request.url}`));
    }
    if (request.headers['x-goog-api-key'] !== options.apiKey) {
      return sendJson(
        res,
        400,
        googleError(
          400,
          'INVALID_ARGUMENT',
          'API key not valid. Please pass a valid API key.',
          'API_KEY_INVALID',
        ),
      );
    }
    if (options.error) {
      const { code, status, message } = options.error;
      return sendJson(res, code, googleError(code, status, message ?? `fake says ${status}`));
    }
    const prompt = request.json?.prompt as
      | { messages?: Array<{ author?: string; content: string }> }
      | undefined;
    if (!Array.isArray(prompt?.messages) || prompt.messages.length === 0) {
      return sendJson(res, 400, googleError(400, 'INVALID_ARGUMENT', 'prompt.messages must not be empty'));
    }
    if (options.blocked) {
      return sendJson(res, 200, {
        messages: prompt.messages,
        filters: [{ reason: 'OTHER' }],
      });
    }
    sendJson(res, 200, {
      candidates: [{ author: '1', content: options.reply ?? 'ok' }],
      messages: prompt.messages,
    });
  };
}
