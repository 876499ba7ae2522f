import { badUpstreamAnswer } from '../errors';
import type { NativeUsageReader } from './types';

/**
 * A token count's answer: passed on as the channel sent it, with nothing to bill (a count is never
 * billed) and never a stream (a count asks for none).
 */
export const countAnswer: NativeUsageReader = {
  answer: () => ({ usage: undefined, text: '' }),
  stream: () => {
    throw badUpstreamAnswer('a stream where a token count was asked');
  },
};
