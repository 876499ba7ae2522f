import { Stack } from '@mantine/core';
import type { OptionKey } from '@switchyard/contract/options';
import type { OptionValues } from '../api/options';
import type { OptionField } from './OptionInput';
import { OptionSection, type OptionSectionProps } from './OptionSection';

/** One section of a settings tab, without the values it edits. */
export type SectionSpec = Omit<OptionSectionProps, 'options'>;

/** Fields edited as plain inputs. */
export const plainFields = (...keys: OptionKey[]): OptionField[] => keys.map((key) => ({ key }));

/** A tab's option sections, one under the other. */
export function OptionSections({ sections, options }: { sections: SectionSpec[]; options: OptionValues }) {
  return (
    <Stack gap="md">
      {sections.map((section, index) => (
        // A tab's sections never move; a key by title would reset drafts when the language changes.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <OptionSection key={index} options={options} {...section} />
      ))}
    </Stack>
  );
}
