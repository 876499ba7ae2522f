import { BEDROCK_MODEL_IDS } from '@switchyard/contract/channel-types-cloud';
import { RelayError } from '../../errors';

export type BedrockFamily = 'claude' | 'llama3';

export interface BedrockModel {
  id: string;
  family: BedrockFamily;
}

/** The (mapped) model name → its Bedrock foundation-model id; names outside the table are refused. */
export function bedrockModelOf(name: string): BedrockModel {
  const id = BEDROCK_MODEL_IDS[name];
  if (!id) {
    throw RelayError.invalid(
      `The model ${name} is not served by AWS Bedrock channels; they serve ${Object.keys(BEDROCK_MODEL_IDS).join(', ')}`,
      'model_not_supported',
    );
  }
  return { id, family: id.startsWith('meta.') ? 'llama3' : 'claude' };
}
