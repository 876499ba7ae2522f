import type { RelayCall } from '../types';

function configuredVersion(call: RelayCall): string | undefined {
  try {
    const config = JSON.parse(call.channel.config || '{}') as { api_version?: unknown };
    if (typeof config.api_version === 'string' && config.api_version) return config.api_version;
  } catch {
    // a malformed config falls back to `other`
  }
  return call.channel.other || undefined;
}

/**
 * gemini-1.5 and 2.0 are served (with system instructions and tools) on v1beta, as one-api's newest
 * rule says; the later generations are newer still, so they get v1beta too. Everything else uses v1.
 */
export function defaultVersion(model: string): 'v1' | 'v1beta' {
  const version = /^gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1];
  return version !== undefined && Number(version) >= 1.5 ? 'v1beta' : 'v1';
}

/** The channel's config.api_version, else its `other` field, else the model's default. */
export const apiVersion = (call: RelayCall) => configuredVersion(call) ?? defaultVersion(call.upstreamModel);

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
