import type { ChannelType } from './channel-type-model';

/** Types one-api added after v0.6.5 with wire formats of their own (34 Coze, 35 Cohere, 37 Cloudflare, 38 DeepL, 46 Replicate). */
export const LATER_NATIVE_TYPES: readonly ChannelType[] = [];
