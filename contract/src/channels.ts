import { z } from 'zod';
import { isHttpBaseUrl, trimBaseUrl } from './base-url';
import { channelTypeById } from './channel-types';
import type { ErrorDetail } from './render-error';
import { splitList } from './tokens';

/**
 * Column sizes, shared with the table definitions. The schemas measure a value as it will be stored
 * (trimmed, lists normalised): PostgreSQL and MariaDB refuse a longer one, SQLite would keep it.
 */
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
  /** Why the last test failed, in English; empty when it passed or never ran (not in one-api's answers). */
  test_error: string;
  /** Why the last test failed, as a refusal code and its data, to be said in the reader's language. */
  test_failure?: ErrorDetail;
}

/** Parses a JSON object of text values (empty text is an empty object), or says why it is not one. */
function parseTextObject(
  text: string | null | undefined,
  what: string,
  example: string,
): { values: Record<string, string> } | { error: string } {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { values: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { error: `${what} must be valid JSON` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: `${what} must be valid JSON: an object such as ${example}` };
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string')
      return { error: `${what} must be valid JSON: the value of "${name}" must be a string` };
  }
  return { values: parsed as Record<string, string> };
}

/** Parses a model mapping (a JSON object of requested name → upstream name), or says why it is not one. */
export function parseModelMapping(
  text: string | null | undefined,
): { mapping: Record<string, string> } | { error: string } {
  const parsed = parseTextObject(text, 'Model mapping', '{"gpt-4-0613": "gpt-4"}');
  return 'error' in parsed ? parsed : { mapping: parsed.values };
}

/**
 * Checks a channel's `config`: a JSON object of the text settings the adaptors read (region, api_version,
 * plugin, library_id, ak/sk, user_id…); empty means none. Answers why it is not one, else undefined.
 */
export const channelConfigError = (text: string | null | undefined): string | undefined => {
  const parsed = parseTextObject(text, 'The channel config', '{"region": "ap-guangzhou"}');
  return 'error' in parsed ? parsed.error : undefined;
};

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

const NAME_AND_KEY_REQUIRED = 'Please fill in the channel name and channel key';

/** The keys of a batch, one per non-empty line, trimmed. */
export const keyLines = (key: string): string[] =>
  key
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A comma list (or an array of names) stored as trimmed, unique names joined by commas. */
const nameList = (label: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${label} must be a comma-separated string` })
    .transform((value) => splitList(Array.isArray(value) ? value.join(',') : value).join(','));

const baseUrl = z
  .string({ error: 'base_url must be a string' })
  .nullish()
  .transform((value) => (value == null ? undefined : trimBaseUrl(value)))
  .pipe(
    z
      .string()
      .max(CHANNEL_BASE_URL_MAX, `The base URL must be at most ${CHANNEL_BASE_URL_MAX} characters`)
      .refine((url) => url === '' || isHttpBaseUrl(url), {
        message: 'The base URL must start with http:// or https:// followed by a host name',
        params: { rule: 'url' },
      })
      .optional(),
  );

/** Stored as typed (trimmed): an object of requested name → upstream name. */
const modelMapping = z
  .string({ error: 'model_mapping must be a string' })
  .nullish()
  .transform((value, context) => {
    if (value == null) return undefined;
    const mapping = parseModelMapping(value);
    if ('error' in mapping) {
      context.addIssue({ code: 'custom', message: mapping.error, params: { rule: 'json' } });
      return z.NEVER;
    }
    return value.trim();
  })
  .pipe(
    z
      .string()
      .max(
        CHANNEL_MODEL_MAPPING_MAX,
        `The model mapping must be at most ${CHANNEL_MODEL_MAPPING_MAX} characters`,
      )
      .optional(),
  );

const channelFields = {
  type: z
    .number({ error: 'type must be a channel type number' })
    .int('type must be a channel type number')
    .refine((type) => channelTypeById(type) !== undefined, 'Unknown channel type'),
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, NAME_AND_KEY_REQUIRED)
    .max(191, 'The channel name must be at most 191 characters'),
  base_url: baseUrl,
  other: optionalText('other', 1000).transform((value) => value?.trim()),
  // Required, except for a type that relays nothing (requireModels).
  models: nameList('models'),
  group: nameList('group').pipe(
    z
      .string()
      .min(1, 'Please select at least one group')
      .max(CHANNEL_GROUP_MAX, `The group list must be at most ${CHANNEL_GROUP_MAX} characters`),
  ),
  model_mapping: modelMapping,
  system_prompt: optionalText('system_prompt', 100_000),
  config: optionalText('config', 100_000).superRefine((value, context) => {
    const error = channelConfigError(value);
    if (error) context.addIssue({ code: 'custom', message: error, params: { rule: 'json' } });
  }),
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

const MODELS_REQUIRED = 'Please select at least one model';

/** An empty model list is refused unless the type relays nothing (one-api's Proxy). */
const modelsGiven = (input: { type?: unknown; models?: unknown }): boolean =>
  input.models !== '' || (typeof input.type === 'number' && channelTypeById(input.type)?.noModels === true);

/** Checked with the other fields' issues, so a form shows every problem at once. */
const REQUIRE_MODELS = {
  path: ['models'],
  message: MODELS_REQUIRED,
  params: { rule: 'required' },
  when: () => true,
};

const keyText = z.string({ error: 'key must be a string' }).max(100_000, 'The key is too long');

/** A new channel, or one per key line (batch); an empty `other` takes the type's default. */
export const createChannelInput = z
  .object({
    ...channelFields,
    name: channelFields.name.prefault(''),
    // Types whose credentials are config fields (AWS, Vertex AI) may leave it empty.
    key: keyText.prefault('').transform((key) => keyLines(key).join('\n')),
    models: channelFields.models.prefault(''),
    group: channelFields.group.prefault('default'),
  })
  .refine(modelsGiven, REQUIRE_MODELS)
  .refine((input) => input.key !== '' || channelTypeById(input.type)?.keyInConfig === true, {
    path: ['key'],
    message: NAME_AND_KEY_REQUIRED,
    params: { rule: 'required' },
    // Said together with the other fields' issues, as a required field is.
    when: ({ issues }) => issues.every((issue) => issue.path?.[0] !== 'key' && issue.path?.[0] !== 'type'),
  })
  .transform((input) => ({ ...input, other: input.other || defaultOtherFor(input.type) }));

/** The whole form, or only some fields (status, priority, weight): the fields given are checked. */
export const updateChannelInput = z
  .object(channelFields)
  .partial()
  .extend({
    id: z.number({ error: 'id is required' }).int('id must be a whole number').positive('id is required'),
    // Empty keeps the stored key.
    key: keyText.optional().transform((key) => key?.trim() || undefined),
    status: z
      .union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' })
      .optional(),
  })
  .refine(modelsGiven, REQUIRE_MODELS);

export type CreateChannelInput = z.infer<typeof createChannelInput>;
export type UpdateChannelInput = z.infer<typeof updateChannelInput>;

/** The columns `GET /api/channel/?order=` sorts by, largest first (then newest first); else newest first. */
export const channelListOrders = ['priority', 'balance', 'response_time'] as const;

/** Where a channel's requests go: its base URL, else its type's default, without trailing slashes. */
export const channelBaseUrl = (channel: { base_url?: string | null; type: number }): string =>
  trimBaseUrl(channel.base_url || channelTypeById(channel.type)?.defaultBaseUrl || '');
