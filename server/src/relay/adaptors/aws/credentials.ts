import { isRegion } from '@switchyard/contract/channel-types-cloud';
import { RelayError } from '../../errors';
import { configText } from '../channel-config';
import type { RelayCall } from '../types';

export interface AwsCredentials {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The channel's config region, ak and sk (one-api's keys); the channel key is not read. */
export function awsCredentialsOf(call: Pick<RelayCall, 'channel'>): AwsCredentials {
  const region = configText(call, 'region')?.trim();
  const accessKeyId = configText(call, 'ak')?.trim();
  const secretAccessKey = configText(call, 'sk')?.trim();
  if (!region || !accessKeyId || !secretAccessKey) {
    throw RelayError.upstream(
      401,
      'The AWS Bedrock channel needs a region, an access key ID and a secret key',
      {
        type: 'authentication_error',
        code: 'invalid_channel_config',
      },
    );
  }
  // The region becomes part of the host name: a stored value that is none is refused, not sent.
  if (!isRegion(region)) {
    throw RelayError.upstream(401, "The AWS Bedrock channel's region is not a region name", {
      type: 'authentication_error',
      code: 'invalid_channel_config',
    });
  }
  return { region, accessKeyId, secretAccessKey };
}

/** The channel's base URL when set (a VPC endpoint, a test double), else the region's Bedrock Runtime. */
export const bedrockBaseUrl = (call: Pick<RelayCall, 'baseUrl'>, region: string): string =>
  call.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;
