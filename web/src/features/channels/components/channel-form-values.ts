import { type BaseUrlKind, ChannelTypeId, channelTypeById } from '@switchyard/contract/channel-types';
import {
  CHANNEL_GROUP_MAX,
  CHANNEL_MODEL_MAPPING_MAX,
  type Channel,
  createChannelInput,
  defaultOtherFor,
  parseModelMapping,
  updateChannelInput,
} from '@switchyard/contract/channels';
import { splitList } from '@switchyard/contract/tokens';
import type { TFunction } from 'i18next';
import type { FieldErrors, ValidationIssue } from '../../../lib/validation';
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
    models: values.models.length === 0 ? [...defaultModels] : values.models,
    other: keepOther ? values.other : defaultOtherFor(type),
  };
}

/** The keys of a batch, one per non-empty line. */
export const keyLines = (key: string): string[] =>
  key
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

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

/** Trimmed, without trailing slashes. */
export const normalizeBaseUrl = (url: string): string => url.trim().replace(/\/+$/, '');

export type ChannelFormResult = { ok: true; change: ChannelChange } | { ok: false; errors: FieldErrors };

/**
 * The form → the server's input. Checks in the order of spec section 5, each with its own message,
 * then the shared schema the server parses with.
 */
export function toChannelChange(
  values: ChannelFormValues,
  id: number | null,
  t: TFunction,
): ChannelFormResult {
  const errors: FieldErrors = {};
  const name = values.name.trim();
  const keys = keyLines(values.key);
  if (id === null) {
    if (!name) errors.name = t('channels.form.nameAndKeyRequired');
    if (keys.length === 0) errors.key = t('channels.form.nameAndKeyRequired');
  } else if (!name) {
    errors.name = t('channels.form.nameRequired');
  }
  if (values.models.length === 0) errors.models = t('channels.form.modelsRequired');

  const mapping = parseModelMapping(values.modelMapping);
  let modelMapping = '';
  if ('error' in mapping) errors.model_mapping = t('channels.form.mappingInvalid');
  else if (Object.keys(mapping.mapping).length > 0) modelMapping = JSON.stringify(mapping.mapping);
  if (modelMapping.length > CHANNEL_MODEL_MAPPING_MAX)
    errors.model_mapping = t('channels.form.mappingTooLong', { max: CHANNEL_MODEL_MAPPING_MAX });

  const group = values.groups.join(',');
  if (values.groups.length === 0) errors.group = t('channels.form.groupsRequired');
  else if (group.length > CHANNEL_GROUP_MAX)
    errors.group = t('channels.form.groupsTooLong', { max: CHANNEL_GROUP_MAX });

  const urlField = baseUrlField(values.type);
  const baseUrl = urlField ? normalizeBaseUrl(values.baseUrl) : '';
  if (urlField?.required && !baseUrl) errors.base_url = t('channels.form.baseUrlRequired');
  else if (baseUrl && !/^https?:\/\/\S+$/i.test(baseUrl)) errors.base_url = t('channels.form.baseUrlInvalid');

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const hasOther = channelTypeById(values.type)?.other !== undefined;
  const fields = {
    type: values.type,
    name,
    base_url: baseUrl,
    other: hasOther ? values.other.trim() || defaultOtherFor(values.type) : '',
    models: values.models.join(','),
    group,
    model_mapping: modelMapping,
    priority: values.priority,
    weight: values.weight,
  };
  if (id === null) {
    const parsed = createChannelInput.safeParse({ ...fields, key: values.batch ? keys.join('\n') : keys[0] });
    return parsed.success
      ? { ok: true, change: { id: null, input: parsed.data } }
      : { ok: false, errors: schemaErrors(parsed.error.issues, t) };
  }
  // A type this console does not know (a newer one-api's) is left as it is.
  const type = channelTypeById(values.type) ? values.type : undefined;
  const parsed = updateChannelInput.safeParse({ ...fields, id, type, key: values.key.trim() });
  return parsed.success
    ? { ok: true, change: { id, input: parsed.data } }
    : { ok: false, errors: schemaErrors(parsed.error.issues, t) };
}

function schemaErrors(issues: readonly ValidationIssue[], t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??=
      field === 'priority'
        ? t('channels.form.priorityInvalid')
        : field === 'weight'
          ? t('channels.form.weightInvalid')
          : t('channels.form.tooLong');
  }
  return errors;
}
