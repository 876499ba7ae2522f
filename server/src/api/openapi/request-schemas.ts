import { passwordResetInput } from '@switchyard/contract/auth';
import { createChannelInput, updateChannelInput } from '@switchyard/contract/channels';
import { OPTION_KEYS, type OptionKey } from '@switchyard/contract/options';
import { createOrderInput } from '@switchyard/contract/payments';
import { playgroundChatSchema } from '@switchyard/contract/playground';
import {
  createRedemptionInput,
  redeemInput,
  redemptionStatusInput,
  updateRedemptionInput,
} from '@switchyard/contract/redemptions';
import {
  anthropicCountTokensRequest,
  anthropicMessagesRequest,
  chatCompletionRequest,
  completionRequest,
  embeddingRequest,
  geminiGenerateContentRequest,
  imageEditRequest,
  imageGenerationRequest,
  imageVariationRequest,
  moderationRequest,
  rerankRequest,
  responsesRequest,
  speechRequest,
  transcriptionRequest,
  veoPredictRequest,
  videoRequest,
} from '@switchyard/contract/relay-requests';
import { createTokenInput, tokenStatusInput, updateTokenInput } from '@switchyard/contract/tokens';
import {
  passkeyRegistrationInput,
  passkeySignInInput,
  twoFactorCodeInput,
} from '@switchyard/contract/two-factor';
import {
  adminTopupInput,
  createUserInput,
  loginInput,
  manageUserInput,
  registerInput,
  updateSelfInput,
  updateUserInput,
} from '@switchyard/contract/users';
import { z } from 'zod';
import { optionInput } from '../routes/options';

/**
 * PUT /api/option/ as documented: the key one of the known options (the parse itself refuses any other
 * with `option_unknown`, a clearer answer than a schema's enum error).
 */
const documentedOptionInput = optionInput.extend({
  key: z
    .enum(OPTION_KEYS as [OptionKey, ...OptionKey[]])
    .describe(
      'The option; secrets (keys, client secrets, webhook secrets) can be set but are never read back',
    ),
});

/** Every request body the reference names: the same zod schemas the server parses with. */
export const REQUEST_SCHEMAS = {
  LoginInput: loginInput,
  RegisterInput: registerInput,
  CreateUserInput: createUserInput,
  UpdateUserInput: updateUserInput,
  UpdateSelfInput: updateSelfInput,
  ManageUserInput: manageUserInput,
  AdminTopupInput: adminTopupInput,
  PasswordResetInput: passwordResetInput,
  TwoFactorCodeInput: twoFactorCodeInput,
  PasskeyRegistrationInput: passkeyRegistrationInput,
  PasskeySignInInput: passkeySignInInput,
  CreateTokenInput: createTokenInput,
  UpdateTokenInput: updateTokenInput,
  TokenStatusInput: tokenStatusInput,
  CreateRedemptionInput: createRedemptionInput,
  UpdateRedemptionInput: updateRedemptionInput,
  RedemptionStatusInput: redemptionStatusInput,
  RedeemInput: redeemInput,
  CreateOrderInput: createOrderInput,
  CreateChannelInput: createChannelInput,
  UpdateChannelInput: updateChannelInput,
  OptionInput: documentedOptionInput,
  PlaygroundChatInput: playgroundChatSchema,
  ChatCompletionRequest: chatCompletionRequest,
  CompletionRequest: completionRequest,
  EmbeddingRequest: embeddingRequest,
  ModerationRequest: moderationRequest,
  RerankRequest: rerankRequest,
  ImageGenerationRequest: imageGenerationRequest,
  ImageEditRequest: imageEditRequest,
  ImageVariationRequest: imageVariationRequest,
  SpeechRequest: speechRequest,
  TranscriptionRequest: transcriptionRequest,
  AnthropicMessagesRequest: anthropicMessagesRequest,
  AnthropicCountTokensRequest: anthropicCountTokensRequest,
  ResponsesRequest: responsesRequest,
  GeminiGenerateContentRequest: geminiGenerateContentRequest,
  VideoRequest: videoRequest,
  VeoPredictRequest: veoPredictRequest,
};
