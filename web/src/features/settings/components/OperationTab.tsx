import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionValues } from '../api/options';
import { LogCleanup } from './LogCleanup';
import { OptionSection } from './OptionSection';
import { OptionSections, plainFields } from './option-sections';
import { RatioPriceHint } from './RatioPriceHint';
import { RootOnlyNotice } from './RootOnlyNotice';

/** Operation settings; without options (an admin who is not root) only the log clean-up is offered. */
export function OperationTab({ options }: { options: OptionValues | null }) {
  const { t } = useTranslation();
  if (!options) {
    return (
      <Stack gap="md">
        <RootOnlyNotice partial />
        <OptionSection title={t('settings.sections.logs')} options={{}}>
          <LogCleanup />
        </OptionSection>
      </Stack>
    );
  }
  return (
    <OptionSections
      options={options}
      sections={[
        {
          title: t('settings.sections.general'),
          cols: 4,
          toggles: ['DisplayInCurrencyEnabled', 'DisplayTokenStatEnabled', 'ApproximateTokenEnabled'],
          fields: [
            { key: 'TopUpLink' },
            { key: 'ChatLink' },
            { key: 'QuotaPerUnit', step: 0.01 },
            { key: 'RetryTimes' },
          ],
          testId: 'section-general',
        },
        {
          title: t('settings.sections.pricing'),
          description: t('settings.sections.pricingText'),
          toggles: ['PublicPricingEnabled'],
          fields: [{ key: 'PublicPricingGroups' }],
          testId: 'section-pricing',
        },
        {
          title: t('settings.sections.logs'),
          toggles: ['LogConsumeEnabled'],
          fields: [{ key: 'LogRetentionDays' }],
          children: <LogCleanup />,
        },
        {
          title: t('settings.sections.monitor'),
          description: t('settings.sections.monitorText'),
          toggles: ['AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled'],
          fields: [{ key: 'ChannelDisableThreshold', step: 0.5 }, { key: 'QuotaRemindThreshold' }],
          testId: 'section-monitor',
        },
        {
          title: t('settings.sections.quota'),
          description: t('settings.sections.quotaText'),
          cols: 4,
          fields: plainFields('QuotaForNewUser', 'PreConsumedQuota', 'QuotaForInviter', 'QuotaForInvitee'),
          testId: 'section-quota',
        },
        {
          title: t('settings.sections.ratio'),
          description: t('settings.sections.ratioText'),
          cols: 1,
          fields: [
            { key: 'ModelRatio', extra: <RatioPriceHint quotaPerUnit={Number(options.QuotaPerUnit) || 0} /> },
            { key: 'CompletionRatio' },
            { key: 'GroupRatio' },
            { key: 'CacheReadRatio' },
            { key: 'CacheWriteRatio' },
            { key: 'AudioRatio' },
            { key: 'AudioCompletionRatio' },
          ],
          testId: 'section-ratio',
        },
      ]}
    />
  );
}
