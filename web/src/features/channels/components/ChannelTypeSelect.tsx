import { ColorSwatch, Group, Select } from '@mantine/core';
import {
  CHANNEL_GROUP_LABELS,
  CHANNEL_TYPES,
  type ChannelGroup,
  channelTypeById,
} from '@switchyard/contract/channel-types';
import { useTranslation } from 'react-i18next';
import { useTypeLabel } from './channel-labels';

const GROUP_ORDER: ChannelGroup[] = ['direct', 'custom', 'knowledge', 'proxy'];

const swatch = (type: number) => (
  <ColorSwatch
    size={12}
    withShadow={false}
    color={`var(--mantine-color-${channelTypeById(type)?.color ?? 'gray'}-6)`}
  />
);

/** The provider type, grouped as the catalogue groups them, each with its colour. */
export function ChannelTypeSelect({ value, onChange }: { value: number; onChange: (type: number) => void }) {
  const { t, i18n } = useTranslation();
  const label = useTypeLabel();
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const data = GROUP_ORDER.map((group) => ({
    group: CHANNEL_GROUP_LABELS[group][lang],
    items: CHANNEL_TYPES.filter((type) => type.group === group).map((type) => ({
      value: String(type.id),
      label: label(type.id),
    })),
  }));
  // A type from a newer one-api database: shown by its number so the form still opens.
  const unknown = channelTypeById(value)
    ? []
    : [{ value: String(value), label: `${label(value)} (${value})` }];
  return (
    <Select
      label={t('channels.form.type')}
      name="type"
      data={[...unknown, ...data]}
      value={String(value)}
      onChange={(next) => next && onChange(Number(next))}
      allowDeselect={false}
      searchable
      withAsterisk
      nothingFoundMessage={t('channels.form.typeSearchEmpty')}
      maxDropdownHeight={360}
      leftSection={swatch(value)}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap">
          {swatch(Number(option.value))}
          {option.label}
        </Group>
      )}
      data-testid="channel-type"
    />
  );
}
