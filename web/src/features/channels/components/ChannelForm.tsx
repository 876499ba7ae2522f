import { Alert, MultiSelect, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { ChannelTypeId, channelTypeById } from '@switchyard/contract/channel-types';
import { type Channel, keyLines } from '@switchyard/contract/channels';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormButtons } from '../../../components/FormButtons';
import { isRoot, useSessionUser } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';
import { useFormFields } from '../../../lib/use-form-fields';
import { useChannelGroups, useSaveChannel } from '../api/channel-edit';
import { defaultModelsOf, useTypeModels } from '../api/channel-models';
import { ChannelConfigFields } from './ChannelConfigFields';
import { ChannelEndpointFields } from './ChannelEndpointFields';
import { ChannelKeyField } from './ChannelKeyField';
import { ChannelModelsField } from './ChannelModelsField';
import { ChannelTypeSelect } from './ChannelTypeSelect';
import {
  type ChannelFormValues,
  configFieldName,
  initialChannelValues,
  toChannelChange,
  withType,
} from './channel-form-values';
import { ModelMappingField } from './ModelMappingField';

/** The input field whose error a change of each value clears. */
const ERROR_FIELD: Record<keyof ChannelFormValues, string> = {
  type: 'type',
  name: 'name',
  key: 'key',
  batch: 'key',
  baseUrl: 'base_url',
  other: 'other',
  groups: 'group',
  models: 'models',
  modelMapping: 'model_mapping',
  priority: 'priority',
  weight: 'weight',
  config: 'config',
};

/** Create channels (no `channel`; one per key line in batch mode) or edit one; back to the list after. */
export function ChannelForm({ channel }: { channel?: Channel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const root = isRoot(useSessionUser());
  const save = useSaveChannel();
  const groups = useChannelGroups();
  const typeModels = useTypeModels();
  const { values, setValues, errors, setErrors, set, text } = useFormFields(
    () => initialChannelValues(channel),
    ERROR_FIELD,
  );

  const changeType = (type: number) => {
    setValues((current) => withType(current, type, defaultModelsOf(type, typeModels.data)));
    setErrors((current) => ({ ...current, models: undefined, base_url: undefined, other: undefined }));
  };

  const changeConfig = (key: string, value: string) => {
    setValues((current) => ({ ...current, config: { ...current.config, [key]: value } }));
    setErrors((current) => ({ ...current, [configFieldName(key)]: undefined }));
  };

  const changeBatch = (batch: boolean) => {
    // A single-line box cannot hold several keys: keep the first.
    if (!batch) set('key', keyLines(values.key)[0] ?? '');
    set('batch', batch);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = toChannelChange(values, channel ? channel.id : null, t);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    save.mutate(result.change, {
      onSuccess: (created) => {
        if (channel) showSuccess(t('channels.form.updated'));
        else if (created > 1) showSuccess(t('channels.form.createdMany', { total: created }));
        else showSuccess(t('channels.form.created'));
        navigate('/channel');
      },
    });
  };

  const groupOptions = [...new Set([...(groups.data ?? []), ...values.groups])];

  return (
    <form onSubmit={submit} noValidate autoComplete="off">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <ChannelTypeSelect value={values.type} onChange={changeType} />
          <TextInput
            label={t('channels.form.name')}
            placeholder={t('channels.form.namePlaceholder')}
            name="name"
            autoComplete="off"
            {...text('name')}
            withAsterisk
          />
        </SimpleGrid>
        {values.type === ChannelTypeId.azure && (
          <Alert color="yellow" variant="light">
            {t('channels.form.azureNote')}
          </Alert>
        )}
        <MultiSelect
          label={t('channels.form.groups')}
          name="group"
          placeholder={values.groups.length ? undefined : t('channels.form.groupsPlaceholder')}
          description={t('channels.form.groupsHint')}
          data={groupOptions}
          value={values.groups}
          onChange={(value) => set('groups', value)}
          searchable
          hidePickedOptions
          nothingFoundMessage={t('channels.form.noGroups')}
          error={errors.group}
          withAsterisk
          data-testid="channel-groups"
        />
        <ChannelConfigFields
          type={values.type}
          config={values.config}
          onChange={changeConfig}
          editing={channel !== undefined}
          root={root}
          errors={errors}
        />
        {/* Credentials kept in the config (AWS, Vertex AI) replace the key. */}
        {!channelTypeById(values.type)?.keyInConfig && (
          <ChannelKeyField
            type={values.type}
            value={values.key}
            onChange={(key) => set('key', key)}
            batch={values.batch}
            onBatchChange={changeBatch}
            editing={channel !== undefined}
            root={root}
            error={errors.key}
          />
        )}
        <ChannelEndpointFields
          type={values.type}
          baseUrl={values.baseUrl}
          other={values.other}
          onBaseUrlChange={(url) => set('baseUrl', url)}
          onOtherChange={(other) => set('other', other)}
          errors={{ base_url: errors.base_url, other: errors.other }}
        />
        {/* one-api's Proxy relays no models: neither field applies. */}
        {!channelTypeById(values.type)?.noModels && (
          <>
            <ChannelModelsField
              type={values.type}
              value={values.models}
              onChange={(models) => set('models', models)}
              error={errors.models}
            />
            <ModelMappingField
              value={values.modelMapping}
              onChange={(mapping) => set('modelMapping', mapping)}
              error={errors.model_mapping}
            />
          </>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NumberInput
            label={t('channels.form.priority')}
            description={t('channels.form.priorityHint')}
            name="priority"
            step={1}
            allowDecimal={false}
            value={values.priority}
            onChange={(value) => set('priority', value)}
            error={errors.priority}
          />
          <NumberInput
            label={t('channels.form.weight')}
            description={t('channels.form.weightHint')}
            name="weight"
            min={0}
            step={1}
            allowDecimal={false}
            value={values.weight}
            onChange={(value) => set('weight', value)}
            error={errors.weight}
          />
        </SimpleGrid>
        <FormButtons saving={save.isPending} onCancel={() => navigate('/channel')} />
      </Stack>
    </form>
  );
}
