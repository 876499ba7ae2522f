import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { OAuthProvider } from '../../../lib/oauth';
import { useServerStatus } from '../../../lib/server-status';
import { saveSession } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';
import { signInResult } from '../api/login';
import { sendOAuthCode } from '../api/oauth';

export const OAUTH_RETRY_DELAY_MS = 2000;

const PROVIDER_NAMES: Record<Exclude<OAuthProvider, 'oidc'>, string> = { github: 'GitHub', lark: 'Lark' };

/**
 * The provider sends the visitor back with code and state. "bind" means an account was
 * bound (back to settings); `two_factor` asks for the code (the login page's second step); otherwise the
 * answer is the signed-in user (to the home page).
 */
export function OAuthCallback({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [prompt, setPrompt] = useState(() => t('oauth.processing'));
  const started = useRef(false);
  const status = useServerStatus();
  const providerName = provider === 'oidc' ? (status?.oidc_name ?? 'OIDC') : PROVIDER_NAMES[provider];

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const attempt = async (count: number): Promise<void> => {
      try {
        const answer = await sendOAuthCode(provider, searchParams);
        if (answer.message === 'bind') {
          showSuccess(t('oauth.bound'));
          navigate('/setting');
          return;
        }
        const result = signInResult(answer);
        if ('twoFactor' in result) {
          navigate('/login', { state: { twoFactor: true, passkey: result.passkey } });
          return;
        }
        saveSession(result.user);
        showSuccess(t('login.success'));
        navigate('/');
      } catch {
        // The API client has shown the server's message already.
        if (count === 0) {
          setPrompt(t('oauth.failed'));
          navigate('/setting');
          return;
        }
        const next = count + 1;
        setPrompt(t('oauth.retrying', { count: next }));
        await new Promise((resolve) => window.setTimeout(resolve, next * OAUTH_RETRY_DELAY_MS));
        await attempt(next);
      }
    };
    void attempt(0);
  }, [navigate, provider, searchParams, t]);

  return (
    <Center mih={300}>
      <Stack align="center" gap="sm">
        <Loader />
        <Text fw={600}>{t('oauth.title', { provider: providerName })}</Text>
        <Text c="dimmed" data-testid="oauth-prompt">
          {prompt}
        </Text>
      </Stack>
    </Center>
  );
}
