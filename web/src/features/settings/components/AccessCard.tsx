import { Alert, Button, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { copyText } from '../../../lib/clipboard';
import { usePublicAddress } from '../../../lib/server-status';
import { showSuccess, showWarning } from '../../../lib/toast';
import { useAffCode, useGenerateAccessToken } from '../api/personal';

/** The invitation link: the gateway's public address with the code. */
const inviteLink = (publicAddress: string, code: string): string =>
  `${publicAddress}/register?aff=${encodeURIComponent(code)}`;

/** System access token and invitation link: each shown and copied. */
export function AccessCard() {
  const { t } = useTranslation();
  const address = usePublicAddress();
  const generate = useGenerateAccessToken();
  const aff = useAffCode();
  const [shown, setShown] = useState<{ kind: 'token' | 'invite'; value: string } | null>(null);

  const copy = async (value: string, success: string) => {
    if (await copyText(value)) showSuccess(success);
    else showWarning(t('errors.copyFailed'));
  };

  const newToken = () =>
    generate.mutate(undefined, {
      onSuccess: (token) => {
        setShown({ kind: 'token', value: token });
        void copy(token, t('settings.personal.tokenCopied'));
      },
    });

  const invite = () =>
    aff.mutate(undefined, {
      onSuccess: (code) => {
        const link = inviteLink(address, code);
        setShown({ kind: 'invite', value: link });
        void copy(link, t('settings.personal.inviteCopied'));
      },
    });

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="access-card">
      <Title order={3} fz="h4">
        {t('settings.personal.title')}
      </Title>
      <Alert color="blue" variant="light" mt="sm" p="sm">
        <Text size="sm">{t('settings.personal.tokenNote')}</Text>
      </Alert>
      <Group mt="md" gap="sm">
        <Button onClick={newToken} loading={generate.isPending}>
          {t('settings.personal.generateToken')}
        </Button>
        <Button variant="default" component={Link} to="/user/edit">
          {t('settings.personal.editProfile')}
        </Button>
      </Group>
      <Group mt="sm" gap="sm" wrap="nowrap" align="center">
        <Button variant="light" onClick={invite} loading={aff.isPending} style={{ flexShrink: 0 }}>
          {t('settings.personal.copyInvite')}
        </Button>
        <Text size="xs" c="dimmed" data-testid="invite-note">
          {t('settings.personal.inviteNote')}
        </Text>
      </Group>
      {shown && (
        <TextInput
          mt="md"
          readOnly
          name={shown.kind === 'token' ? 'access_token' : 'invite_link'}
          label={
            shown.kind === 'token' ? t('settings.personal.tokenLabel') : t('settings.personal.inviteLabel')
          }
          value={shown.value}
          onFocus={(event) => event.currentTarget.select()}
          rightSectionWidth={80}
          rightSection={
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() =>
                void copy(
                  shown.value,
                  shown.kind === 'token'
                    ? t('settings.personal.tokenCopiedAgain')
                    : t('settings.personal.inviteCopied'),
                )
              }
            >
              {t('common.copy')}
            </Button>
          }
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      )}
    </Paper>
  );
}
