import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionValues } from '../api/options';
import { LogCleanup } from './LogCleanup';
import { OptionSection } from './OptionSection';
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
    <Stack gap="md">
      <OptionSection
        title={t('settings.sections.general')}
        options={options}
        cols={4}
        toggles={['DisplayInCurrencyEnabled', 'DisplayTokenStatEnabled', 'ApproximateTokenEnabled']}
        fields={[
          { key: 'TopUpLink' },
          { key: 'ChatLink' },
          { key: 'QuotaPerUnit', step: 0.01 },
          { key: 'RetryTimes' },
        ]}
        testId="section-general"
      />
      <OptionSection title={t('settings.sections.logs')} options={options} toggles={['LogConsumeEnabled']}>
        <LogCleanup />
      </OptionSection>
      <OptionSection
        title={t('settings.sections.monitor')}
        description={t('settings.sections.monitorText')}
        options={options}
        toggles={['AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled']}
        fields={[{ key: 'ChannelDisableThreshold', step: 0.5 }, { key: 'QuotaRemindThreshold' }]}
        testId="section-monitor"
      />
      <OptionSection
        title={t('settings.sections.quota')}
        description={t('settings.sections.quotaText')}
        options={options}
        cols={4}
        fields={[
          { key: 'QuotaForNewUser' },
          { key: 'PreConsumedQuota' },
          { key: 'QuotaForInviter' },
          { key: 'QuotaForInvitee' },
        ]}
        testId="section-quota"
      />
      <OptionSection
        title={t('settings.sections.ratio')}
        description={t('settings.sections.ratioText')}
        options={options}
        cols={1}
        fields={[
          { key: 'ModelRatio', extra: <RatioPriceHint quotaPerUnit={Number(options.QuotaPerUnit) || 0} /> },
          { key: 'CompletionRatio' },
          { key: 'GroupRatio' },
        ]}
        testId="section-ratio"
      />
    </Stack>
  );
}
