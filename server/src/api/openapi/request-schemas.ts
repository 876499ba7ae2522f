import { passwordResetInput } from '@switchyard/contract/auth';
import { createChannelInput, updateChannelInput } from '@switchyard/contract/channels';
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
import { optionInput } from '../routes/options';

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
  CreateChannelInput: createChannelInput,
  UpdateChannelInput: updateChannelInput,
  OptionInput: optionInput,
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
