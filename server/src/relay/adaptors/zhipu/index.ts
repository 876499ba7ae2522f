import type { Adaptor } from '../types';
import { parseError } from './errors';
import { buildRequest, usesV3 } from './request';
import { convertResponse } from './response';
import { ZhipuV3Stream, ZhipuV4Stream } from './stream';
import { sendToZhipu } from './transport';

/**
 * Zhipu ChatGLM, authenticated by a JWT signed from the `id.secret` key: glm-* and other current
 * models on the OpenAI-shaped v4 API (chat, embeddings, images), the legacy chatglm_* models on the
 * v3 model API (invoke, sse-invoke).
 */
export const adaptor: Adaptor = {
  buildRequest,
  transport: sendToZhipu,
  convertResponse,
  streamTranslator: (call) => (usesV3(call) ? new ZhipuV3Stream(call) : new ZhipuV4Stream(call)),
  parseError,
};
