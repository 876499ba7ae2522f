import { z } from 'zod';

/** The most turns and characters a playground conversation sends. */
export const PLAYGROUND_MAX_MESSAGES = 100;
export const PLAYGROUND_MAX_CHARACTERS = 100_000;
export const PLAYGROUND_MAX_TOKENS = 128_000;

const message = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string().max(PLAYGROUND_MAX_CHARACTERS),
});

/**
 * A playground chat: one of the caller's keys (`token_id`; absent: the temporary key, the user's
 * own quota without a key's limits), the model, parameters and the conversation. The server relays
 * it as a streamed chat completion.
 */
export const playgroundChatSchema = z.object({
  token_id: z.number().int().positive().optional(),
  model: z.string().trim().min(1).max(191),
  messages: z
    .array(message)
    .min(1)
    .max(PLAYGROUND_MAX_MESSAGES)
    .refine(
      (turns) => turns.reduce((sum, turn) => sum + turn.content.length, 0) <= PLAYGROUND_MAX_CHARACTERS,
      { message: `The conversation may have at most ${PLAYGROUND_MAX_CHARACTERS} characters` },
    ),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(PLAYGROUND_MAX_TOKENS).optional(),
});

/** One of the caller's keys as the playground offers it: never the whole key. */
export interface PlaygroundKey {
  id: number;
  name: string;
  /** `sk-` and the key's first and last four characters. */
  masked: string;
}

/** The most keys the playground offers. */
export const PLAYGROUND_MAX_KEYS = 100;

export const maskedKey = (key: string): string => `sk-${key.slice(0, 4)}…${key.slice(-4)}`;
