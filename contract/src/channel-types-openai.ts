import type { ChannelType } from './channel-type-model';

/** OpenAI-format types one-api added after v0.6.5 (36, 39–41, 43–45, 47–51). */
export const LATER_OPENAI_TYPES: readonly ChannelType[] = [];
