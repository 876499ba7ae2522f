import { onFirstUse } from '../../../on-first-use';
import type { UpstreamRequest } from '../types';
import type { AwsCredentials } from './credentials';

/** Bedrock Runtime signs as service `bedrock`. */
const SERVICE = 'bedrock';

const signing = onFirstUse(async () => {
  const [{ Hash }, { SignatureV4 }] = await Promise.all([
    import('@smithy/hash-node'),
    import('@smithy/signature-v4'),
  ]);
  return { Hash, SignatureV4 };
});

/**
 * A POST to `url` with a JSON body, signed with AWS Signature V4. The path is already percent-encoded
 * (model ids hold `:`); the signer encodes it once more for the canonical request, as AWS expects.
 */
export async function signedPost(
  url: string,
  body: string,
  accept: string,
  credentials: AwsCredentials,
): Promise<UpstreamRequest> {
  const target = new URL(url);
  const { Hash, SignatureV4 } = await signing();
  const signer = new SignatureV4({
    service: SERVICE,
    region: credentials.region,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port ? Number(target.port) : undefined,
    path: target.pathname,
    query: {},
    headers: { host: target.host, 'content-type': 'application/json', accept },
    body,
  });
  return { url, method: 'POST', headers: signed.headers as Record<string, string>, body };
}
