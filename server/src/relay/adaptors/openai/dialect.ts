import type { ChannelType, OpenAiUrlRule } from '@switchyard/contract/channel-types';
import { RelayError } from '../../errors';
import { configTextOrOther } from '../channel-config';
import type { RelayCall } from '../types';
import type { OpenAiSettings } from '.';

/** Sent where the catalogue says `appHeaders`: the gateway's name and site. */
const APP_HEADERS = {
  'HTTP-Referer': 'https://github.com/switchyard-gateway/switchyard',
  'X-Title': 'Switchyard',
};

const AZURE_DEFAULT_API_VERSION = '2024-03-01-preview';

const azureApiVersion = (call: RelayCall): string =>
  configTextOrOther(call, 'api_version') ?? AZURE_DEFAULT_API_VERSION;

/** Azure OpenAI: deployment URLs named after the model (dots removed), `api-key` header. */
const azure: Pick<OpenAiSettings, 'url' | 'auth'> = {
  url: (call) => {
    const deployment = call.upstreamModel.replace(/\./g, '');
    const tail = call.path.replace(/^\/v1\//, '');
    const base = call.baseUrl.startsWith('https://gateway.ai.cloudflare.com')
      ? call.baseUrl
      : `${call.baseUrl}/openai/deployments`;
    return `${base}/${deployment}/${tail}?api-version=${encodeURIComponent(azureApiVersion(call))}`;
  },
  auth: (call) => ({ 'api-key': call.apiKey }),
};

/** A type that serves chat completions only, at its own path. */
const chatOnly =
  (name: string, path: string) =>
  (call: RelayCall): string => {
    if (call.mode !== 'chat')
      throw RelayError.invalid(`${name} channels serve chat completions only`, 'unsupported_mode');
    return `${call.baseUrl}${path}${call.query}`;
  };

/** What a per-mode type serves, in words: "chat completions and embeddings". */
const servedModes = (paths: { chat?: string; embeddings?: string }): string =>
  [paths.chat && 'chat completions', paths.embeddings && 'embeddings'].filter(Boolean).join(' and ');

/** A type with its own path for chat and embeddings (Doubao, Bailian), or embeddings alone; other modes are refused. */
const perMode =
  (name: string, paths: { chat?: string; embeddings?: string }) =>
  (call: RelayCall): string => {
    const path =
      call.mode === 'chat' ? paths.chat : call.mode === 'embeddings' ? paths.embeddings : undefined;
    if (!path)
      throw RelayError.invalid(`${name} channels serve ${servedModes(paths)} only`, 'unsupported_mode');
    return `${call.baseUrl}${path}${call.query}`;
  };

/** A base URL that already ends in the API version (SDK style): the client's leading /v1 is dropped. */
const versionedBase =
  (name: string) =>
  (call: RelayCall): string => {
    const base = call.baseUrl.replace(/\/+$/, '');
    // one-api's console requires one; a channel stored without it is the administrator's to fix.
    if (!base)
      throw RelayError.upstream(503, `This ${name} channel has no base URL; an administrator must set one`, {
        type: 'one_api_error',
        code: 'channel_base_url_missing',
      });
    return `${base}${call.path.replace(/^\/v1(?=\/|$)/, '')}${call.query}`;
  };

function urlOf(name: string, rule: Exclude<OpenAiUrlRule, { kind: 'azure' }>): (call: RelayCall) => string {
  switch (rule.kind) {
    case 'chat-only':
      return chatOnly(name, rule.path);
    case 'per-mode':
      return perMode(name, rule.paths);
    case 'versioned-base':
      return versionedBase(name);
  }
}

/** The OpenAI adaptor's settings for an OpenAI-compatible type, read from its catalogue entry. */
export function openAiSettingsOf(type: ChannelType): OpenAiSettings {
  const dialect = type.openAi ?? {};
  const settings: OpenAiSettings = { streamUsage: dialect.streamUsage === true };
  if (dialect.appHeaders) settings.extraHeaders = APP_HEADERS;
  if (dialect.url?.kind === 'azure') return { ...settings, ...azure };
  if (dialect.url) settings.url = urlOf(type.name.en, dialect.url);
  return settings;
}
