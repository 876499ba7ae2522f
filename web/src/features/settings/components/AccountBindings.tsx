import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useServerStatus } from '../../../lib/server-status';
import { useBindOAuth, useSelf } from '../api/personal';
import { EmailBindModal } from './EmailBindModal';
import { WeChatBindModal } from './WeChatBindModal';

interface BindingRowProps {
  name: string;
  bound: string;
  enabled: boolean;
  loading?: boolean;
  onBind: () => void;
}

function BindingRow({ name, bound, enabled, loading, onBind }: BindingRowProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" data-binding={name}>
      <div style={{ minWidth: 0 }}>
        <Text fw={500}>{name}</Text>
        {bound ? (
          <Badge variant="light" color="teal" maw="100%">
            {t('settings.bindings.bound', { value: bound })}
          </Badge>
        ) : (
          <Text size="xs" c="dimmed">
            {enabled ? t('settings.bindings.notBound') : t('settings.bindings.notEnabled')}
          </Text>
        )}
      </div>
      <Button
        className="tap-target"
        variant="default"
        size="xs"
        disabled={!enabled}
        loading={loading}
        onClick={onBind}
      >
        {bound ? t('settings.bindings.rebind') : t('settings.bindings.bind')}
      </Button>
    </Group>
  );
}

/** WeChat, GitHub, Lark, OpenID Connect and email, each offered when the server enables it. */
export function AccountBindings() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const self = useSelf();
  const oauth = useBindOAuth();
  const [wechatOpened, wechat] = useDisclosure(false);
  const [emailOpened, email] = useDisclosure(false);
  const user = self.data;
  const githubId = status?.github_oauth ? status.github_client_id : '';
  const larkId = status?.lark_client_id ?? '';

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="bindings-card">
      <Title order={3} fz="h4">
        {t('settings.bindings.title')}
      </Title>
      <Stack gap="sm" mt="md">
        <BindingRow
          name={t('settings.bindings.wechat')}
          bound={user?.wechat_id ?? ''}
          enabled={Boolean(status?.wechat_login)}
          onBind={wechat.open}
        />
        <BindingRow
          name="GitHub"
          bound={user?.github_id ?? ''}
          enabled={Boolean(githubId)}
          loading={oauth.isPending && oauth.variables?.provider === 'github'}
          onBind={() => oauth.mutate({ provider: 'github', clientId: githubId })}
        />
        <BindingRow
          name={t('settings.bindings.lark')}
          bound={user?.lark_id ?? ''}
          enabled={Boolean(larkId)}
          loading={oauth.isPending && oauth.variables?.provider === 'lark'}
          onBind={() => oauth.mutate({ provider: 'lark', clientId: larkId })}
        />
        <BindingRow
          name={status?.oidc_name || 'OIDC'}
          bound={user?.oidc_subject ?? ''}
          enabled={Boolean(status?.oidc)}
          loading={oauth.isPending && oauth.variables?.provider === 'oidc'}
          onBind={() => oauth.mutate({ provider: 'oidc', clientId: '' })}
        />
        <BindingRow
          name={t('settings.bindings.email')}
          bound={user?.email ?? ''}
          enabled
          onBind={email.open}
        />
      </Stack>
      <WeChatBindModal opened={wechatOpened} onClose={wechat.close} qrCode={status?.wechat_qrcode ?? ''} />
      <EmailBindModal opened={emailOpened} onClose={email.close} />
    </Paper>
  );
}
