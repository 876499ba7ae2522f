import { RelayError } from '../../errors';
import { answerObject } from '../answer-check';
import { requiredConfigText } from '../channel-config';
import { openAiAdaptor } from '../openai';
import type { Adaptor, RelayCall } from '../types';
import { upstreamError } from '../upstream-error';

/** An AI Gateway address for Workers AI (`https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/workers-ai`). */
const isGateway = (base: string) =>
  base.startsWith('https://gateway.ai.cloudflare.com') && base.replace(/\/+$/, '').endsWith('/workers-ai');

const PATHS: Partial<Record<RelayCall['mode'], string>> = {
  chat: '/v1/chat/completions',
  embeddings: '/v1/embeddings',
};

/**
 * Workers AI's OpenAI-compatible endpoints under the account (config `user_id`), or under an AI
 * Gateway address given as the base URL, which names the account itself.
 */
export function cloudflareUrl(call: RelayCall): string {
  const path = PATHS[call.mode];
  if (!path) {
    throw RelayError.invalid(
      `Cloudflare Workers AI channels relay chat and embeddings, not ${call.mode}`,
      'unsupported_mode',
    );
  }
  const base = call.baseUrl.replace(/\/+$/, '');
  if (isGateway(base)) return `${base}${path}`;
  const account = encodeURIComponent(requiredConfigText(call, 'user_id', 'Account ID'));
  return `${base}/client/v4/accounts/${account}/ai${path}`;
}

/** Cloudflare's API refuses in its own envelope (`{success:false, errors:[{code, message}]}`). */
function parseError(status: number, body: Buffer): RelayError {
  const answer = answerObject<{ errors?: Array<{ code?: number; message?: string }> }>(body);
  const first = answer instanceof RelayError ? undefined : answer.errors?.[0];
  if (first?.message) return RelayError.upstream(status, first.message, { code: first.code ?? null });
  return upstreamError(status, body);
}

/** Cloudflare Workers AI: OpenAI's format, Bearer API token. */
export const adaptor: Adaptor = { ...openAiAdaptor({ url: cloudflareUrl }), parseError };
