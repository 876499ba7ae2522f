import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionValues } from '../api/options';
import { OptionSection } from './OptionSection';
import { UpdateCheck } from './UpdateCheck';

/** Notice, branding, page contents and the update check (root only). */
export function OtherTab({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <UpdateCheck />
      <OptionSection
        title={t('settings.sections.notice')}
        options={options}
        cols={1}
        fields={[{ key: 'Notice', multiline: true }]}
        testId="section-notice"
      />
      <OptionSection
        title={t('settings.sections.branding')}
        description={t('settings.sections.brandingText')}
        options={options}
        fields={[{ key: 'SystemName' }, { key: 'Theme' }, { key: 'Logo' }, { key: 'Footer' }]}
        testId="section-branding"
      />
      <OptionSection
        title={t('settings.sections.content')}
        description={t('settings.sections.contentText')}
        options={options}
        fields={[
          { key: 'HomePageContent', multiline: true },
          { key: 'About', multiline: true },
        ]}
        testId="section-content"
      />
    </Stack>
  );
}
