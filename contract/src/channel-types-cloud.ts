import type { ChannelType, ConfigField } from './channel-type-model';
import { BEDROCK_RERANK_MODELS, VERTEX_RERANK_MODELS } from './channel-types-rerank';

/** Bedrock's foundation-model ids by the model names clients ask for (one-api's two tables). */
export const BEDROCK_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-instant-1.2': 'anthropic.claude-instant-v1',
  'claude-2.0': 'anthropic.claude-v2',
  'claude-2.1': 'anthropic.claude-v2:1',
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-sonnet-latest': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'llama3-8b-8192': 'meta.llama3-8b-instruct-v1:0',
  'llama3-70b-8192': 'meta.llama3-70b-instruct-v1:0',
};

const VERTEX_CLAUDE_MODELS = [
  'claude-3-haiku@20240307',
  'claude-3-sonnet@20240229',
  'claude-3-opus@20240229',
  'claude-3-5-sonnet@20240620',
  'claude-3-5-sonnet-v2@20241022',
  'claude-3-5-haiku@20241022',
];

const VERTEX_GEMINI_MODELS = [
  'gemini-pro',
  'gemini-pro-vision',
  'gemini-exp-1206',
  'gemini-1.5-pro-001',
  'gemini-1.5-pro-002',
  'gemini-1.5-flash-001',
  'gemini-1.5-flash-002',
  'gemini-2.0-flash-exp',
  'gemini-2.0-flash-001',
  'gemini-2.0-flash-lite-preview-02-05',
  'gemini-2.0-flash-thinking-exp-01-21',
];

/**
 * A cloud region as AWS and Google name them (`us-west-2`, `us-east5`, `global`): lower-case letters
 * and digits in hyphenated words, nothing that could end or change a host name (a dot, a colon, a
 * slash, `@`, `#`).
 */
export const isRegion = (value: string): boolean =>
  /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) && value.length <= 63;

const region = (example: string): ConfigField => ({
  key: 'region',
  label: { en: 'Region', zh: '区域' },
  placeholder: { en: `e.g. ${example}`, zh: `例如：${example}` },
  required: true,
  steers: true,
  format: 'region',
});

/** AWS Bedrock (33) and Google Vertex AI (42): cloud credentials in the channel config. */
export const AWS_AND_VERTEX_TYPES: readonly ChannelType[] = [
  {
    id: 33,
    group: 'direct',
    name: { en: 'AWS Bedrock', zh: 'AWS Bedrock' },
    color: 'dark',
    // The endpoint comes from the region (bedrock-runtime.<region>.amazonaws.com).
    defaultBaseUrl: '',
    apiStyle: 'aws',
    defaultModels: [...Object.keys(BEDROCK_MODEL_IDS), ...BEDROCK_RERANK_MODELS],
    rerank: 'bedrock',
    keyInConfig: true,
    configFields: [
      region('us-west-2'),
      {
        key: 'ak',
        label: { en: 'Access key ID', zh: 'Access Key ID' },
        placeholder: { en: 'AWS IAM access key ID', zh: 'AWS IAM Access Key ID' },
        required: true,
        secret: true,
      },
      {
        key: 'sk',
        label: { en: 'Secret access key', zh: 'Secret Access Key' },
        placeholder: { en: 'AWS IAM secret access key', zh: 'AWS IAM Secret Access Key' },
        required: true,
        secret: true,
      },
    ],
    tip: {
      en: 'Claude and Llama 3 through Amazon Bedrock, and its rerankers (/v1/rerank). The IAM user needs bedrock:InvokeModel and bedrock:InvokeModelWithResponseStream (bedrock:Rerank to rerank).',
      zh: '通过 Amazon Bedrock 调用 Claude 与 Llama 3，以及其重排序模型（/v1/rerank）。IAM 用户需要 bedrock:InvokeModel 与 bedrock:InvokeModelWithResponseStream 权限（重排序还需 bedrock:Rerank）。',
    },
  },
  {
    id: 42,
    group: 'direct',
    name: { en: 'Google Vertex AI', zh: 'Google Vertex AI' },
    color: 'blue',
    // The host comes from the region ({region}-aiplatform.googleapis.com).
    defaultBaseUrl: '',
    apiStyle: 'vertex',
    defaultModels: [...VERTEX_CLAUDE_MODELS, ...VERTEX_GEMINI_MODELS, ...VERTEX_RERANK_MODELS],
    rerank: 'vertex',
    keyInConfig: true,
    configFields: [
      region('us-east5'),
      {
        key: 'vertex_ai_project_id',
        label: { en: 'Project ID', zh: '项目 ID' },
        placeholder: { en: 'Google Cloud project ID', zh: 'Google Cloud 项目 ID' },
        required: true,
        // A part of the upstream's path.
        steers: true,
      },
      {
        key: 'vertex_ai_adc',
        label: { en: 'Service account key (JSON)', zh: '服务账号密钥（JSON）' },
        placeholder: {
          en: 'The service account key file, as Google Cloud downloads it: {"type": "service_account", …}',
          zh: 'Google Cloud 下载的服务账号密钥文件内容：{"type": "service_account", …}',
        },
        required: true,
        multiline: true,
        secret: true,
      },
    ],
    tip: {
      en: "Gemini and Claude through Vertex AI, and Google's semantic rankers (/v1/rerank, the Discovery Engine API). The service account needs the Vertex AI User role in the project (Discovery Engine User to rerank).",
      zh: '通过 Vertex AI 调用 Gemini 与 Claude，以及 Google 的语义排序模型（/v1/rerank，Discovery Engine API）。服务账号需要该项目的 Vertex AI User 角色（重排序还需 Discovery Engine User）。',
    },
  },
];
