import type { Adaptor } from '../types';
import { buildRequest } from './request';
import { CozeStream, convertResponse, parseError } from './response';

/** Coze bots (chat API v2): the model name is the bot id, the channel's config names the user. */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new CozeStream(call),
  parseError,
};
