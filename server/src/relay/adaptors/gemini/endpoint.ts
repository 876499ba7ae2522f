import { configTextOrOther } from '../channel-config';
import type { RelayCall } from '../types';
import { configuredGeminiVersion } from './settings';

/**
 * gemini-1.5 and 2.0 are served (with system instructions and tools) on v1beta, as one-api's newest
 * rule says; the later generations are newer still, so they get v1beta too. Everything else uses v1.
 */
export function defaultVersion(model: string): 'v1' | 'v1beta' {
  const version = /^gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1];
  return version !== undefined && Number(version) >= 1.5 ? 'v1beta' : 'v1';
}

/** The channel's config.api_version, else its `other` field, else GEMINI_VERSION, else the model's default. */
export const apiVersion = (call: Pick<RelayCall, 'channel' | 'upstreamModel'>) =>
  configTextOrOther(call, 'api_version') ?? configuredGeminiVersion() ?? defaultVersion(call.upstreamModel);

/** `{base}/{version}/models/{model}:{method}`; streams ask for server-sent events. */
export function endpointUrl(call: RelayCall): string {
  const method =
    call.mode === 'embeddings'
      ? 'batchEmbedContents'
      : call.isStream
        ? 'streamGenerateContent?alt=sse'
        : 'generateContent';
  return `${call.baseUrl}/${apiVersion(call)}/models/${call.upstreamModel}:${method}`;
}
