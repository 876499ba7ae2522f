import type { ChannelType } from './channel-type-model';

/** AWS Bedrock (33) and Google Vertex AI (42): cloud credentials in the channel config. */
export const AWS_AND_VERTEX_TYPES: readonly ChannelType[] = [];
