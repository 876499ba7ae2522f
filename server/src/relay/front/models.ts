import { CHANNEL_TYPES } from '@switchyard/contract/channel-types';

const CREATED = 1626777600;

const OWNERS = new Map<string, string>();
for (const type of CHANNEL_TYPES) {
  const owner =
    type.apiStyle === 'openai'
      ? type.group === 'direct'
        ? type.name.en.toLowerCase().split(' ')[0]!
        : 'openai'
      : type.apiStyle;
  for (const model of type.defaultModels) if (!OWNERS.has(model)) OWNERS.set(model, owner);
}

/** A model as OpenAI's /v1/models lists it. */
export function modelObject(id: string) {
  return {
    id,
    object: 'model',
    created: CREATED,
    owned_by: OWNERS.get(id) ?? 'custom',
    permission: [
      {
        id: `modelperm-${id}`,
        object: 'model_permission',
        created: CREATED,
        allow_create_engine: true,
        allow_sampling: true,
        allow_logprobs: true,
        allow_search_indices: false,
        allow_view: true,
        allow_fine_tuning: false,
        organization: '*',
        group: null,
        is_blocking: false,
      },
    ],
    root: id,
    parent: null,
  };
}
