import { type ChannelType, type OpenAiDialect, openAiLike } from './channel-type-model';

/**
 * Types of this gateway's own, for providers one-api has no type for. Their ids start at 1001, so
 * that one-api's next numbers (52 on) stay free for it.
 */

/** Their OpenAI-compatible part is embeddings: a chat call is refused before the upstream. */
const EMBEDDINGS_ONLY: OpenAiDialect = { url: { kind: 'per-mode', paths: { embeddings: '/v1/embeddings' } } };

const JINA_MODELS = [
  'jina-reranker-v2-base-multilingual',
  'jina-reranker-m0',
  'jina-colbert-v2',
  'jina-embeddings-v3',
] as const;

const VOYAGE_MODELS = ['rerank-2.5', 'rerank-2.5-lite', 'rerank-2', 'rerank-2-lite'] as const;

/** Rerank models of the types that have other models too. */
export const COHERE_RERANK_MODELS = ['rerank-v3.5', 'rerank-english-v3.0', 'rerank-multilingual-v3.0'];
/** Bedrock's rerankers, named by their foundation-model ids (Bedrock Agent Runtime's Rerank). */
export const BEDROCK_RERANK_MODELS = ['cohere.rerank-v3-5:0', 'amazon.rerank-v1:0'];
/** Google's semantic rankers (Discovery Engine's ranking API, used with a Vertex AI service account). */
export const VERTEX_RERANK_MODELS = [
  'semantic-ranker-default@latest',
  'semantic-ranker-default-004',
  'semantic-ranker-fast-004',
  'semantic-ranker-512@latest',
];
export const SILICONFLOW_RERANK_MODELS = ['BAAI/bge-reranker-v2-m3', 'netease-youdao/bce-reranker-base_v1'];

export const RERANK_TYPES: readonly ChannelType[] = [
  openAiLike(1001, 'direct', 'Jina AI', 'Jina AI', 'red', 'https://api.jina.ai', {
    openAi: EMBEDDINGS_ONLY,
    defaultModels: JINA_MODELS,
    rerank: 'jina',
    tip: {
      en: "Jina AI's rerankers (/v1/rerank) and embeddings (/v1/embeddings).",
      zh: 'Jina AI 的重排序模型（/v1/rerank）与向量嵌入（/v1/embeddings）。',
    },
  }),
  openAiLike(1002, 'direct', 'Voyage AI', 'Voyage AI', 'violet', 'https://api.voyageai.com', {
    openAi: EMBEDDINGS_ONLY,
    defaultModels: VOYAGE_MODELS,
    rerank: 'voyage',
    tip: {
      en: "Voyage AI's rerankers (/v1/rerank) and embeddings (/v1/embeddings).",
      zh: 'Voyage AI 的重排序模型（/v1/rerank）与向量嵌入（/v1/embeddings）。',
    },
  }),
];
