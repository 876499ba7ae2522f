import { isRegion } from '@switchyard/contract/channel-types-cloud';
import { RelayError } from '../../errors';
import { configText } from '../channel-config';
import type { RelayCall } from '../types';

/** The fields of a service-account key file the token exchange uses. */
export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
}

export interface VertexSettings {
  region: string;
  projectId: string;
  account: ServiceAccount;
}

const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

const badConfig = (what: string) =>
  RelayError.upstream(401, `The Vertex AI channel's config is not usable: ${what}`, {
    type: 'authentication_error',
    code: 'invalid_channel_config',
  });

function serviceAccountOf(text: string): ServiceAccount {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw badConfig('the service account key is not JSON');
  }
  const field = (name: string) => (typeof parsed[name] === 'string' ? (parsed[name] as string) : '');
  if (!field('client_email') || !field('private_key')) {
    throw badConfig('the service account key has no client_email or private_key');
  }
  return {
    clientEmail: field('client_email'),
    privateKey: field('private_key'),
    privateKeyId: field('private_key_id') || undefined,
    tokenUri: field('token_uri') || GOOGLE_TOKEN_URI,
  };
}

/** config.region, config.vertex_ai_project_id and config.vertex_ai_adc (the key file's JSON). */
export function vertexSettingsOf(call: Pick<RelayCall, 'channel'>): VertexSettings {
  const region = configText(call, 'region')?.trim();
  const projectId = configText(call, 'vertex_ai_project_id')?.trim();
  const adc = configText(call, 'vertex_ai_adc');
  if (!region || !projectId || !adc)
    throw badConfig('it needs a region, a project ID and a service account key');
  // The region becomes part of the host name: a stored value that is none is refused, not sent.
  if (!isRegion(region)) throw badConfig('the region is not a region name');
  return { region, projectId, account: serviceAccountOf(adc) };
}
