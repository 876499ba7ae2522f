import { Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useServerStatus } from '../../../lib/server-status';
import type { OptionValues } from '../api/options';
import { OptionSection } from './OptionSection';

/** Where a provider sends people back: the configured server address, else this console's origin. */
function CallbackHint({ base, path, label }: { base: string; path: string; label: string }) {
  return (
    <Text size="sm" c="dimmed">
      {label} <Code>{`${base}${path}`}</Code>
    </Text>
  );
}

/** Sign-in, registration and the services the server talks to (root only). */
export function SystemTab({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const status = useServerStatus();
  const base = options.ServerAddress || status?.server_address || window.location.origin;
  return (
    <Stack gap="md">
      <OptionSection
        title={t('settings.sections.general')}
        description={t('settings.sections.serverText')}
        options={options}
        cols={1}
        fields={[{ key: 'ServerAddress' }]}
        testId="section-server"
      />
      <OptionSection
        title={t('settings.sections.login')}
        options={options}
        toggles={[
          'PasswordLoginEnabled',
          'PasswordRegisterEnabled',
          'EmailVerificationEnabled',
          'RegisterEnabled',
        ]}
        testId="section-login"
      />
      <OptionSection
        title={t('settings.sections.emailDomain')}
        description={t('settings.sections.emailDomainText')}
        options={options}
        cols={1}
        toggles={['EmailDomainRestrictionEnabled']}
        fields={[{ key: 'EmailDomainWhitelist' }]}
        testId="section-email-domain"
      />
      <OptionSection
        title={t('settings.sections.smtp')}
        description={t('settings.sections.smtpText')}
        options={options}
        cols={3}
        fields={[
          { key: 'SMTPServer' },
          { key: 'SMTPPort' },
          { key: 'SMTPAccount' },
          { key: 'SMTPFrom' },
          { key: 'SMTPToken' },
        ]}
        testId="section-smtp"
      />
      <OptionSection
        title={t('settings.sections.github')}
        description={
          <CallbackHint base={base} path="/oauth/github" label={t('settings.sections.githubCallback')} />
        }
        options={options}
        toggles={['GitHubOAuthEnabled']}
        fields={[{ key: 'GitHubClientId' }, { key: 'GitHubClientSecret' }]}
        testId="section-github"
      />
      <OptionSection
        title={t('settings.sections.lark')}
        description={
          <CallbackHint base={base} path="/oauth/lark" label={t('settings.sections.larkCallback')} />
        }
        options={options}
        fields={[{ key: 'LarkClientId' }, { key: 'LarkClientSecret' }]}
        testId="section-lark"
      />
      <OptionSection
        title={t('settings.sections.wechat')}
        description={t('settings.sections.wechatText')}
        options={options}
        cols={3}
        toggles={['WeChatAuthEnabled']}
        fields={[
          { key: 'WeChatServerAddress' },
          { key: 'WeChatServerToken' },
          { key: 'WeChatAccountQRCodeImageURL' },
        ]}
        testId="section-wechat"
      />
      <OptionSection
        title={t('settings.sections.pusher')}
        description={t('settings.sections.pusherText')}
        options={options}
        fields={[{ key: 'MessagePusherAddress' }, { key: 'MessagePusherToken' }]}
        testId="section-pusher"
      />
      <OptionSection
        title={t('settings.sections.turnstile')}
        description={t('settings.sections.turnstileText')}
        options={options}
        toggles={['TurnstileCheckEnabled']}
        fields={[{ key: 'TurnstileSiteKey' }, { key: 'TurnstileSecretKey' }]}
        testId="section-turnstile"
      />
    </Stack>
  );
}
