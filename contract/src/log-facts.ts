import { z } from 'zod';

/**
 * What a log line says, as data: written beside the English `content` (which one-api and its clients
 * read) so that the console can say it in its own language. Amounts are raw quota; the console
 * formats them with its quota display. Rows one-api wrote have no facts and show their content.
 */
/** Numbers are finite (zod refuses NaN and Infinity). */
const quota = z.number();
const tokens = z.number().int().nonnegative().optional();

/** The parts of a call's tokens its provider reported, each one counted in the prompt or completion column. */
const tokenPartsSchema = z.object({
  /** Prompt tokens read from the provider's cache, priced at cacheReadRatio. */
  cached: tokens,
  /** Prompt tokens written to the provider's cache, priced at cacheWriteRatio. */
  cacheWrite: tokens,
  /** Completion tokens spent reasoning, priced as completion. */
  reasoning: tokens,
  /** Audio prompt and completion tokens: priced as ordinary ones. */
  audioInput: tokens,
  /** Image prompt tokens: priced at imageInputRatio when the facts give one, else as ordinary ones. */
  imageInput: tokens,
  audioOutput: tokens,
});

export type LogTokenParts = z.infer<typeof tokenPartsSchema>;

const logFactsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('consume'),
    modelRatio: z.number(),
    groupRatio: z.number(),
    /** Absent for calls priced per unit (images, speech), which have no completion tokens. */
    completionRatio: z.number().optional(),
    /** Set with the cached part: its price relative to the prompt price. */
    cacheReadRatio: z.number().optional(),
    /** Set with the cache-write part: its price relative to the prompt price. */
    cacheWriteRatio: z.number().optional(),
    /** Set with the image-input part when it has a price of its own (GPT image models). */
    imageInputRatio: z.number().optional(),
    parts: tokenPartsSchema.optional(),
    /** A call priced per picture: how many were asked for, at which size and quality. */
    images: z
      .object({
        count: z.number().int().positive(),
        size: z.string().max(32),
        quality: z.string().max(32).optional(),
      })
      .optional(),
    /** The account could not pay the whole cost: charged what was left of it. */
    underpaid: z.object({ cost: quota, charged: quota }).optional(),
  }),
  z.object({ kind: z.literal('new_user_bonus'), quota }),
  z.object({ kind: z.literal('invitee_bonus'), quota }),
  z.object({ kind: z.literal('inviter_bonus'), quota }),
  /** An administrator's top-up; a remark they gave is shown as they wrote it. */
  z.object({ kind: z.literal('top_up'), quota, by: z.string(), remark: z.string().optional() }),
  z.object({ kind: z.literal('quota_change'), from: quota, to: quota, by: z.string() }),
  z.object({ kind: z.literal('redemption'), quota }),
  /** An online payment credited: its order, gateway and what was paid (minor units). */
  z.object({
    kind: z.literal('online_top_up'),
    quota,
    trade_no: z.string(),
    method: z.string(),
    money: z.number().int(),
    currency: z.string(),
  }),
  /** Root refunded a paid order: `quota` taken back of the order's `ordered` (less when spent). */
  z.object({
    kind: z.literal('top_up_refund'),
    quota,
    ordered: quota,
    trade_no: z.string(),
    by: z.string(),
  }),
  /** `message` is the reply on success, the error otherwise. */
  z.object({
    kind: z.literal('channel_test'),
    channel: z.string(),
    success: z.boolean(),
    message: z.string(),
  }),
]);

export type LogFacts = z.infer<typeof logFactsSchema>;

/** The facts column's text for a log's facts. */
export const logFactsText = (facts: LogFacts): string => JSON.stringify(facts);

/** A consumption line's facts text with what the account could not pay added; other texts unchanged. */
export function withUnderpaid(
  text: string | null | undefined,
  underpaid: { cost: number; charged: number },
): string | null {
  const facts = parseLogFacts(text);
  if (facts?.kind !== 'consume') return text ?? null;
  return logFactsText({ ...facts, underpaid });
}

/** A facts column's text read back: the facts, or undefined when it is empty or not valid facts. */
export function parseLogFacts(text: string | null | undefined): LogFacts | undefined {
  if (!text) return undefined;
  try {
    const parsed = logFactsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
