import { Button, Divider, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerStatus } from '../../../lib/server-status';
import { useStartOAuth } from '../api/oauth';

// The modal (and Mantine's Modal with it) loads only when a visitor opens it.
const WeChatLoginModal = lazy(async () => ({
  default: (await import('./WeChatLoginModal')).WeChatLoginModal,
}));

/** GitHub, WeChat, Lark and OpenID Connect buttons, each only when the server status enables it. */
export function SocialLogin() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const startOAuth = useStartOAuth();
  const [wechatOpened, wechat] = useDisclosure(false);
  if (!status) return null;
  const github = status.github_oauth && status.github_client_id;
  const lark = status.lark_client_id;
  const wechatOn = status.wechat_login;
  if (!github && !lark && !wechatOn && !status.oidc) return null;

  return (
    <>
      <Divider label={t('login.otherMethods')} labelPosition="center" />
      <Group justify="center" gap="sm">
        {github && (
          <Button
            className="tap-target"
            variant="default"
            onClick={() => startOAuth.mutate({ provider: 'github', clientId: status.github_client_id })}
          >
            {t('login.github')}
          </Button>
        )}
        {wechatOn && (
          <Button className="tap-target" variant="default" color="green" onClick={wechat.open}>
            {t('login.wechat')}
          </Button>
        )}
        {lark && (
          <Button
            className="tap-target"
            variant="default"
            onClick={() => startOAuth.mutate({ provider: 'lark', clientId: lark })}
          >
            {t('login.lark')}
          </Button>
        )}
        {status.oidc && (
          <Button
            className="tap-target"
            variant="default"
            loading={startOAuth.isPending && startOAuth.variables?.provider === 'oidc'}
            onClick={() => startOAuth.mutate({ provider: 'oidc', clientId: '' })}
          >
            {status.oidc_name}
          </Button>
        )}
      </Group>
      {wechatOn && wechatOpened && (
        <Suspense fallback={null}>
          <WeChatLoginModal opened onClose={wechat.close} qrCode={status.wechat_qrcode} />
        </Suspense>
      )}
    </>
  );
}
