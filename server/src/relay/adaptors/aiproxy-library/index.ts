import type { Adaptor } from '../types';
import { buildRequest } from './request';
import { convertResponse, parseError } from './response';
import { LibraryStream } from './stream';

/** AI Proxy's knowledge library: a chat answered from the library named by the channel. */
export const adaptor: Adaptor = {
  buildRequest,
  convertResponse,
  streamTranslator: (call) => new LibraryStream(call),
  parseError,
};
