import { Code, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { publicAddress } from '../../../lib/server-status';
import type { OptionValues } from '../api/options';
import type { OptionField } from './OptionInput';
import { OptionSections, plainFields } from './option-sections';

/** Addresses the server itself calls out to. */
const outbound = (key: OptionField['key']): OptionField => ({ key, outbound: true });

/** Where a provider sends people back: the configured server address, else this console's origin. */
function CallbackHint({ base, path, label }: { base: string; path: string; label: string }) {
  return (
    <Text size="sm" c="dimmed">
      {label} <Code style={{ overflowWrap: 'anywhere' }}>{`${base}${path}`}</Code>
    </Text>
  );
}

/** Sign-in, registration and the services the server talks to (root only). */
export function SystemTab({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const base = publicAddress(options.ServerAddress);
  return (
    <OptionSections
      options={options}
      sections={[
        {
          title: t('settings.sections.general'),
          description: t('settings.sections.serverText'),
          cols: 1,
          fields: [
            {
              key: 'ServerAddress',
              placeholder: t('settings.serverAddressInEffect', { address: base }),
            },
          ],
          testId: 'section-server',
        },
        {
          title: t('settings.sections.login'),
          toggles: [
            'PasswordLoginEnabled',
            'PasswordRegisterEnabled',
            'EmailVerificationEnabled',
            'RegisterEnabled',
            'TwoFactorRequiredForAdmins',
          ],
          testId: 'section-login',
        },
        {
          title: t('settings.sections.emailDomain'),
          description: t('settings.sections.emailDomainText'),
          cols: 1,
          toggles: ['EmailDomainRestrictionEnabled'],
          fields: plainFields('EmailDomainWhitelist'),
          testId: 'section-email-domain',
        },
        {
          title: t('settings.sections.smtp'),
          description: t('settings.sections.smtpText'),
          cols: 3,
          fields: [
            outbound('SMTPServer'),
            ...plainFields('SMTPPort', 'SMTPAccount', 'SMTPFrom', 'SMTPToken'),
          ],
          testId: 'section-smtp',
        },
        {
          title: t('settings.sections.github'),
          description: (
            <CallbackHint base={base} path="/oauth/github" label={t('settings.sections.githubCallback')} />
          ),
          toggles: ['GitHubOAuthEnabled'],
          fields: plainFields('GitHubClientId', 'GitHubClientSecret'),
          testId: 'section-github',
        },
        {
          title: t('settings.sections.lark'),
          description: (
            <CallbackHint base={base} path="/oauth/lark" label={t('settings.sections.larkCallback')} />
          ),
          fields: plainFields('LarkClientId', 'LarkClientSecret'),
          testId: 'section-lark',
        },
        {
          title: t('settings.sections.oidc'),
          description: (
            <>
              <Text size="sm" c="dimmed">
                {t('settings.sections.oidcText')}
              </Text>
              <CallbackHint base={base} path="/oauth/oidc" label={t('settings.sections.oidcCallback')} />
            </>
          ),
          toggles: ['OidcEnabled'],
          fields: [
            outbound('OidcIssuer'),
            ...plainFields('OidcClientId', 'OidcClientSecret', 'OidcScopes', 'OidcDisplayName'),
          ],
          testId: 'section-oidc',
        },
        {
          title: t('settings.sections.wechat'),
          description: t('settings.sections.wechatText'),
          cols: 3,
          toggles: ['WeChatAuthEnabled'],
          fields: [
            outbound('WeChatServerAddress'),
            ...plainFields('WeChatServerToken', 'WeChatAccountQRCodeImageURL'),
          ],
          testId: 'section-wechat',
        },
        {
          title: t('settings.sections.pusher'),
          description: t('settings.sections.pusherText'),
          fields: [outbound('MessagePusherAddress'), ...plainFields('MessagePusherToken')],
          testId: 'section-pusher',
        },
        {
          title: t('settings.sections.turnstile'),
          description: t('settings.sections.turnstileText'),
          toggles: ['TurnstileCheckEnabled'],
          fields: plainFields('TurnstileSiteKey', 'TurnstileSecretKey'),
          testId: 'section-turnstile',
        },
        {
          title: t('settings.sections.payments'),
          description: (
            <>
              {t('settings.sections.paymentsText', { quotaPerUnit: options.QuotaPerUnit })}
              <CallbackHint
                base={base}
                path="/api/topup/stripe/webhook"
                label={t('settings.sections.stripeWebhook')}
              />
              <CallbackHint
                base={base}
                path="/api/topup/epay/notify"
                label={t('settings.sections.epayNotify')}
              />
            </>
          ),
          cols: 3,
          toggles: ['StripeEnabled', 'EPayEnabled'],
          fields: [
            ...plainFields('StripeSecretKey', 'StripeWebhookSecret'),
            outbound('EPayAddress'),
            ...plainFields(
              'EPayPid',
              'EPayKey',
              'TopUpCurrency',
              'TopUpUnitPrice',
              'TopUpAmountOptions',
              'TopUpMinAmount',
            ),
          ],
          testId: 'section-payments',
        },
      ]}
    />
  );
}
