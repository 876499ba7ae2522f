import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';
import { readJson, StorageKey, writeItem } from '../../../lib/storage';
import { channelsKeys } from './channels-list';

/** Channel type id (as a string) → that type's default models. */
export type TypeModels = Record<string, string[]>;

/** The last GET /api/models answer of this page load; local storage keeps it across loads. */
let loaded: TypeModels | null = null;

/** A type's default models: from memory, else the stored copy, else none. */
export function defaultModelsOf(type: number, models: TypeModels | null | undefined = loaded): string[] {
  const map = models ?? readJson<TypeModels>(StorageKey.channelModels);
  return map?.[String(type)] ?? [];
}

/** GET /api/models, kept in memory and in local storage under channel_models. */
export function useTypeModels() {
  return useQuery({
    queryKey: channelsKeys.typeModels,
    queryFn: async () => {
      const models = (await fetchData<TypeModels>('/api/models')) ?? {};
      loaded = models;
      writeItem(StorageKey.channelModels, JSON.stringify(models));
      return models;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** GET /api/channel/models: every model the gateway knows (answers `data` as a list of {id}). */
export function useAllModels() {
  return useQuery({
    queryKey: channelsKeys.allModels,
    queryFn: () =>
      fetchData<Array<{ id: string }>>('/api/channel/models').then((models) =>
        (models ?? []).map((model) => model.id),
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
