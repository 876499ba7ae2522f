import { RelayError } from '../../errors';
import { configText } from '../channel-config';
import type { RelayCall } from '../types';

export interface TencentCredentials {
  appId: string;
  secretId: string;
  secretKey: string;
}

/** The channel key is `AppId|SecretId|SecretKey`; only the secret pair signs requests. */
export function credentialsOf(call: RelayCall): TencentCredentials {
  const [appId = '', secretId = '', secretKey = '', ...rest] = call.apiKey.split('|');
  if (!secretId || !secretKey || rest.length > 0) {
    throw RelayError.upstream(401, 'The Tencent Hunyuan channel key must be AppId|SecretId|SecretKey', {
      type: 'authentication_error',
      code: 'invalid_channel_key',
    });
  }
  return { appId, secretId, secretKey };
}

/** `region` from the channel's config JSON (sent as X-TC-Region), when set. */
export const regionOf = (call: RelayCall): string | undefined => configText(call, 'region');
