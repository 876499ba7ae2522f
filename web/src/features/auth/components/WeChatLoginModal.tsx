import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { saveSession } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';
import { useWeChatLogin } from '../api/oauth';

/** QR code of the official account and the code it sends (valid three minutes). */
export function WeChatLoginModal({
  opened,
  onClose,
  qrCode,
}: {
  opened: boolean;
  onClose: () => void;
  qrCode: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useWeChatLogin();
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    login.mutate(code.trim(), {
      onSuccess: (user) => {
        saveSession(user);
        onClose();
        navigate('/');
        showSuccess(t('login.success'));
      },
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('wechat.title')} centered>
      <form onSubmit={submit}>
        <Stack align="center">
          {qrCode && <Image src={qrCode} alt={t('wechat.qrAlt')} w={200} h={200} fit="contain" />}
          <Text size="sm" c="dimmed" ta="center">
            {t('wechat.scanTip')}
          </Text>
          <TextInput
            w="100%"
            label={t('wechat.code')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth loading={login.isPending}>
            {t('wechat.submit')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
