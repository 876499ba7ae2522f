import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { SOURCE_URL } from '@switchyard/contract/status';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { renderTimestamp } from '../../../lib/format';
import { getSystemName, useServerStatus } from '../../../lib/server-status';
import { useSessionUser } from '../../../lib/session';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text fw={600} size="sm">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

function OnOff({ on }: { on: boolean | undefined }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={on ? 'green' : 'gray'}>
      {on ? t('common.enabled') : t('common.disabled')}
    </Badge>
  );
}

/** The home page when the administrator set no content: welcome and system status. */
export function DefaultHome() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const user = useSessionUser();
  const name = status?.system_name || getSystemName();

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Title order={2} fz={{ base: 'h3', sm: 'h2' }} mb="xs">
          {t('home.welcomeTitle', { name })}
        </Title>
        <Text c="dimmed">{t('home.welcomeText', { name })}</Text>
        {!user && (
          <Text mt="sm" data-testid="sign-in-prompt">
            {/* One sentence per language, so each ends with its own full stop. */}
            <Trans
              i18nKey="home.signInPrompt"
              components={{
                login: <Anchor component={Link} to="/login" />,
                register: <Anchor component={Link} to="/register" />,
              }}
            />
          </Text>
        )}
      </Card>
      <Title order={3}>{t('home.statusTitle')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg">
          <Title order={4} mb="md">
            {t('home.infoTitle')}
          </Title>
          <Stack gap="sm">
            <Row label={t('home.name')}>{name}</Row>
            <Row label={t('home.version')}>{status?.version || 'unknown'}</Row>
            <Row label={t('home.source')}>
              <Anchor href={SOURCE_URL} target="_blank" rel="noreferrer" size="sm">
                {t('home.sourceLink')}
              </Anchor>
            </Row>
            <Row label={t('home.startTime')}>
              {status?.start_time ? renderTimestamp(status.start_time) : '-'}
            </Row>
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Title order={4} mb="md">
            {t('home.configTitle')}
          </Title>
          <Stack gap="sm">
            <Row label={t('home.emailVerification')}>
              <OnOff on={status?.email_verification} />
            </Row>
            <Row label={t('home.githubOAuth')}>
              <OnOff on={status?.github_oauth} />
            </Row>
            <Row label={t('home.oidcLogin')}>
              <OnOff on={status?.oidc} />
            </Row>
            <Row label={t('home.wechatLogin')}>
              <OnOff on={status?.wechat_login} />
            </Row>
            <Row label={t('home.turnstile')}>
              <OnOff on={status?.turnstile_check} />
            </Row>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
