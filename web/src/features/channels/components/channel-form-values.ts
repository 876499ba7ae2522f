import { trimBaseUrl } from '@switchyard/contract/base-url';
import {
  type BaseUrlKind,
  ChannelTypeId,
  type ConfigField,
  channelTypeById,
} from '@switchyard/contract/channel-types';
import { isRegion } from '@switchyard/contract/channel-types-cloud';
import {
  type Channel,
  createChannelInput,
  defaultOtherFor,
  keyLines,
  parseModelMapping,
  updateChannelInput,
} from '@switchyard/contract/channels';
import type { ValidationIssue } from '@switchyard/contract/issue-rules';
import { splitList } from '@switchyard/contract/tokens';
import type { TFunction } from 'i18next';
import { type FieldErrors, fieldErrors } from '../../../lib/validation';
import type { ChannelChange } from '../api/channel-edit';

export interface ChannelFormValues {
  type: number;
  name: string;
  /** One key, or one key per line when `batch` is on. */
  key: string;
  /** Creation only: one channel per key line. */
  batch: boolean;
  baseUrl: string;
  other: string;
  groups: string[];
  models: string[];
  modelMapping: string;
  priority: number | string;
  weight: number | string;
  /** The channel's config JSON as an object: every key kept, the type's fields edited. */
  config: Record<string, string>;
}

/** The form field (and error key) of one config setting. */
export const configFieldName = (key: string) => `config.${key}`;

/** A stored config as the form edits it; malformed or non-text values are dropped. */
export function parseConfig(text: string | null | undefined): Record<string, string> {
  try {
    const parsed = JSON.parse(text || '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** The mapping example of the form: dated model names → their base names. */
export const MODEL_MAPPING_EXAMPLE: Readonly<Record<string, string>> = {
  'gpt-3.5-turbo-0301': 'gpt-3.5-turbo',
  'gpt-4-0314': 'gpt-4',
  'gpt-4-32k-0314': 'gpt-4-32k',
};

export const prettyJson = (value: unknown): string => JSON.stringify(value, null, 2);

export function initialChannelValues(channel?: Channel): ChannelFormValues {
  if (!channel) {
    return {
      type: ChannelTypeId.openai,
      name: '',
      key: '',
      batch: false,
      baseUrl: '',
      other: '',
      groups: ['default'],
      models: [],
      modelMapping: '',
      priority: 0,
      weight: 0,
      config: {},
    };
  }
  const mapping = parseModelMapping(channel.model_mapping);
  return {
    type: channel.type,
    name: channel.name,
    key: channel.key,
    batch: false,
    baseUrl: channel.base_url,
    other: channel.other,
    groups: splitList(channel.group),
    models: splitList(channel.models),
    modelMapping:
      'mapping' in mapping && Object.keys(mapping.mapping).length > 0
        ? prettyJson(mapping.mapping)
        : channel.model_mapping,
    priority: channel.priority,
    weight: channel.weight,
    config: parseConfig(channel.config),
  };
}

/**
 * A new type: its default models when none are chosen yet, and its own `other` default unless
 * the field means the same for both types and holds a typed value.
 */
export function withType(
  values: ChannelFormValues,
  type: number,
  defaultModels: string[],
): ChannelFormValues {
  const sameMeaning = channelTypeById(values.type)?.other?.kind === channelTypeById(type)?.other?.kind;
  const keepOther = sameMeaning && values.other !== '' && values.other !== defaultOtherFor(values.type);
  return {
    ...values,
    type,
    models:
      values.models.length === 0 || channelTypeById(type)?.noModels ? [...defaultModels] : values.models,
    other: keepOther ? values.other : defaultOtherFor(type),
  };
}

export interface BaseUrlField {
  kind: BaseUrlKind;
  required: boolean;
  /** Used by the server when the field is empty. */
  defaultUrl: string;
}

/** How the base URL field reads for a type; null when the type has no use for one (Spark). */
export function baseUrlField(type: number): BaseUrlField | null {
  const entry = channelTypeById(type);
  if (!entry || (!entry.baseUrlRequired && !entry.defaultBaseUrl)) return null;
  return {
    kind: entry.baseUrlKind ?? 'proxy',
    required: entry.baseUrlRequired === true,
    defaultUrl: entry.defaultBaseUrl,
  };
}

export type ChannelFormResult = { ok: true; change: ChannelChange } | { ok: false; errors: FieldErrors };

/** The message tables of the form; editing words the name rule its own way (no key is asked for). */
const CREATE_MESSAGES = ['channels.form.errors'];
/** Without a key to ask for (an edit keeps the stored one; Bedrock and Vertex have settings instead). */
const NAME_ONLY_MESSAGES = ['channels.form.errors.edit', 'channels.form.errors'];

/** The form → the server's input, checked and normalised by the schema the server parses with. */
export function toChannelChange(
  values: ChannelFormValues,
  id: number | null,
  t: TFunction,
): ChannelFormResult {
  const urlField = baseUrlField(values.type);
  const noModels = channelTypeById(values.type)?.noModels === true;
  const mapping = parseModelMapping(noModels ? '' : values.modelMapping);
  const fields = {
    type: values.type,
    name: values.name,
    base_url: urlField ? values.baseUrl : '',
    other: channelTypeById(values.type)?.other ? values.other : '',
    models: noModels ? [] : values.models,
    group: values.groups,
    // Sent compact; a mapping that does not parse is sent as typed, for the schema to refuse.
    model_mapping:
      'error' in mapping
        ? values.modelMapping
        : Object.keys(mapping.mapping).length > 0
          ? JSON.stringify(mapping.mapping)
          : '',
    priority: values.priority,
    weight: values.weight,
  };
  const baseUrlMissing = urlField?.required === true && !trimBaseUrl(values.baseUrl);
  const configMissing = missingConfigFields(values, id !== null);
  const notRegions = notRegionFields(values);
  const complete = !baseUrlMissing && configMissing.length === 0 && notRegions.length === 0;
  const refuse = (issues: readonly ValidationIssue[], scopes: readonly string[]): ChannelFormResult => {
    const errors = fieldErrors(issues, t, scopes);
    if (baseUrlMissing) errors.base_url = t('channels.form.errors.base_url.required');
    for (const field of notRegions)
      errors[configFieldName(field.key)] = t('channels.form.errors.configRegion');
    for (const field of configMissing) {
      errors[configFieldName(field.key)] = t('channels.form.errors.configRequired');
    }
    return { ok: false, errors };
  };
  const withConfig = { ...fields, ...configFieldsOf(values) };
  const entry = channelTypeById(values.type);
  if (id === null) {
    const key = entry?.keyInConfig ? '' : values.batch ? values.key : (keyLines(values.key)[0] ?? '');
    const parsed = createChannelInput.safeParse({ ...withConfig, key });
    if (parsed.success && complete) return { ok: true, change: { id, input: parsed.data } };
    const issues = parsed.success ? [] : parsed.error.issues;
    return refuse(issues, entry?.keyInConfig ? NAME_ONLY_MESSAGES : CREATE_MESSAGES);
  }
  // A type this console does not know (a newer one-api's) is left as it is.
  const type = entry ? values.type : undefined;
  const key = entry?.keyInConfig ? '' : values.key;
  const parsed = updateChannelInput.safeParse({ ...withConfig, id, type, key });
  if (parsed.success && complete) return { ok: true, change: { id, input: parsed.data } };
  return refuse(parsed.success ? [] : parsed.error.issues, NAME_ONLY_MESSAGES);
}

/**
 * `config` for a type with settings of its own: the whole object, as one-api's console saves it (the
 * type's fields trimmed, empty ones included); other types leave the stored config as it is.
 */
function configFieldsOf(values: ChannelFormValues): { config?: string } {
  const fields = channelTypeById(values.type)?.configFields;
  if (!fields?.length) return {};
  const config = { ...values.config };
  for (const field of fields) config[field.key] = (config[field.key] ?? '').trim();
  return { config: JSON.stringify(config) };
}

/** Region settings filled with something that is no region name (it would become part of a host). */
function notRegionFields(values: ChannelFormValues): ConfigField[] {
  const fields = channelTypeById(values.type)?.configFields ?? [];
  return fields.filter((field) => {
    const value = (values.config[field.key] ?? '').trim();
    return field.format === 'region' && value !== '' && !isRegion(value);
  });
}

/** Required settings left empty; on edit a secret may stay empty (it keeps the saved one). */
function missingConfigFields(values: ChannelFormValues, editing: boolean): ConfigField[] {
  const fields = channelTypeById(values.type)?.configFields ?? [];
  return fields.filter(
    (field) => field.required && !(editing && field.secret) && !(values.config[field.key] ?? '').trim(),
  );
}
