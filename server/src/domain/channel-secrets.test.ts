import { describe, expect, it } from 'vitest';
import { channelSecrets } from './channel-secrets';
import { redactSecrets } from './redact-secrets';

const BEDROCK = 33;
const VERTEX = 42;

describe('channelSecrets: credentials, not configuration', () => {
  it("keeps a Bedrock channel's region and takes out its access key pair", () => {
    const channel = {
      type: BEDROCK,
      key: 'AKIAFAKEBEDROCK00001|fakeSecret/Bedrock+0123|us-west-2',
      config: JSON.stringify({
        region: 'us-west-2',
        ak: 'AKIAFAKEBEDROCK00001',
        sk: 'fakeSecret/Bedrock+0123',
      }),
    };
    const text = 'getaddrinfo ENOTFOUND bedrock-runtime.us-west-2.amazonaws.com as fakeSecret/Bedrock+0123';
    expect(redactSecrets(text, channelSecrets(channel))).toBe(
      'getaddrinfo ENOTFOUND bedrock-runtime.us-west-2.amazonaws.com as [redacted]',
    );
    expect(redactSecrets(channel.key, channelSecrets(channel))).toBe('[redacted]|[redacted]|us-west-2');
  });

  it("keeps a Vertex channel's region and project and takes out its service account key", () => {
    const privateKey =
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';
    const adc = JSON.stringify({
      type: 'service_account',
      project_id: 'acme-prod-llm-gateway',
      private_key: privateKey,
    });
    const channel = {
      type: VERTEX,
      key: `us-east5|acme-prod-llm-gateway|${adc}`,
      config: JSON.stringify({
        region: 'us-east5',
        vertex_ai_project_id: 'acme-prod-llm-gateway',
        vertex_ai_adc: adc,
      }),
    };
    const text =
      'getaddrinfo ENOTFOUND us-east5-aiplatform.googleapis.com for projects/acme-prod-llm-gateway, key MIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
    expect(redactSecrets(text, channelSecrets(channel))).toBe(
      'getaddrinfo ENOTFOUND us-east5-aiplatform.googleapis.com for projects/acme-prod-llm-gateway, key [redacted]',
    );
  });

  it('still takes out every part of a key that is no config (Baidu ak|sk)', () => {
    const channel = { type: 15, key: 'baiduAccessKey01|baiduSecretKey02', config: '' };
    expect(redactSecrets('ak baiduAccessKey01 sk baiduSecretKey02', channelSecrets(channel))).toBe(
      'ak [redacted] sk [redacted]',
    );
  });
});
