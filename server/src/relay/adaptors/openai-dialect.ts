import type { ChannelType } from '@switchyard/contract/channel-types';
import { RelayError } from '../errors';
import { configTextOrOther } from './channel-config';
import type { OpenAiSettings } from './openai';
import type { RelayCall } from './types';

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

/** The OpenAI adaptor's settings for an OpenAI-compatible type, read from its catalogue entry. */
export function openAiSettingsOf(type: ChannelType): OpenAiSettings {
  const dialect = type.openAi ?? {};
  const settings: OpenAiSettings = { streamUsage: dialect.streamUsage === true };
  if (dialect.appHeaders) settings.extraHeaders = APP_HEADERS;
  if (dialect.url?.kind === 'azure') return { ...settings, ...azure };
  if (dialect.url?.kind === 'chat-only') settings.url = chatOnly(type.name.en, dialect.url.path);
  return settings;
}
