import { z } from 'zod';
import { channelTypeById } from './channel-types';

export const CHANNEL_GROUP_MAX = 32;
export const CHANNEL_MODEL_MAPPING_MAX = 1024;
export const CHANNEL_BASE_URL_MAX = 191;

/** A channel as the API returns it. `key` is filled for root only. */
export interface Channel {
  id: number;
  type: number;
  key: string;
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string;
  other: string;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  used_quota: number;
  model_mapping: string;
  priority: number;
  config: string;
  system_prompt: string;
}

/** Parses a model mapping (a JSON object of requested name → upstream name), or says why it is not one. */
export function parseModelMapping(
  text: string | null | undefined,
): { mapping: Record<string, string> } | { error: string } {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { mapping: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { error: 'Model mapping must be valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'Model mapping must be valid JSON: an object such as {"gpt-4-0613": "gpt-4"}' };
  }
  for (const [from, to] of Object.entries(parsed)) {
    if (typeof to !== 'string')
      return { error: `Model mapping must be valid JSON: the value of "${from}" must be a string` };
  }
  return { mapping: parsed as Record<string, string> };
}

/** `other` defaults by type: Azure's API version and Spark's version. */
export function defaultOtherFor(type: number): string {
  return channelTypeById(type)?.other?.default ?? '';
}

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be a string` })
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => value ?? undefined);

const listText = (label: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${label} must be a comma-separated string` })
    .transform((value) => (Array.isArray(value) ? value.join(',') : value));

const channelFields = {
  type: z
    .number({ error: 'type must be a channel type number' })
    .int('type must be a channel type number')
    .refine((type) => channelTypeById(type) !== undefined, 'Unknown channel type'),
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .max(191, 'The channel name must be at most 191 characters'),
  key: z.string({ error: 'key must be a string' }).max(100_000, 'The key is too long'),
  base_url: optionalText('base_url', 1000),
  other: optionalText('other', 1000),
  models: listText('models'),
  group: listText('group'),
  model_mapping: optionalText('model_mapping', 100_000),
  system_prompt: optionalText('system_prompt', 100_000),
  config: optionalText('config', 100_000),
  priority: z
    .union([z.number(), z.string(), z.null()], { error: 'priority must be a whole number' })
    .optional()
    .transform((value, context) => {
      if (value === null || value === undefined || value === '') return undefined;
      const number = Number(value);
      if (!Number.isInteger(number) || Math.abs(number) > 1e12) {
        context.addIssue({ code: 'custom', message: 'priority must be a whole number' });
        return z.NEVER;
      }
      return number;
    }),
  weight: z
    .union([z.number(), z.string(), z.null()], { error: 'weight must be a whole number' })
    .optional()
    .transform((value, context) => {
      if (value === null || value === undefined || value === '') return undefined;
      const number = Number(value);
      if (!Number.isFinite(number) || number > 1e9) {
        context.addIssue({ code: 'custom', message: 'weight must be a whole number' });
        return z.NEVER;
      }
      return Math.max(0, Math.trunc(number));
    }),
};

export const createChannelInput = z.object({
  ...channelFields,
  name: channelFields.name.optional().default(''),
  key: channelFields.key.optional().default(''),
  models: channelFields.models.optional().default(''),
  group: channelFields.group.optional().default('default'),
});

export const updateChannelInput = z
  .object(channelFields)
  .partial()
  .extend({
    id: z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required'),
    status: z
      .union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' })
      .optional(),
  });

export type CreateChannelInput = z.infer<typeof createChannelInput>;
export type UpdateChannelInput = z.infer<typeof updateChannelInput>;
