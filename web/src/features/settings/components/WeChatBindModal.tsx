import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../../lib/toast';
import { useBindWeChat } from '../api/personal';

/** The official account's QR code and the code it sends (valid three minutes). */
export function WeChatBindModal({
  opened,
  onClose,
  qrCode,
}: {
  opened: boolean;
  onClose: () => void;
  qrCode: string;
}) {
  const { t } = useTranslation();
  const bind = useBindWeChat();
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    bind.mutate(code.trim(), {
      onSuccess: () => {
        showSuccess(t('settings.bindings.wechatBound'));
        setCode('');
        onClose();
      },
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.bindings.wechatTitle')} centered size="sm">
      <form onSubmit={submit}>
        <Stack align="center">
          {qrCode && <Image src={qrCode} alt={t('settings.bindings.qrAlt')} w={200} h={200} fit="contain" />}
          <Text size="sm" c="dimmed" ta="center">
            {t('settings.bindings.wechatTip')}
          </Text>
          <TextInput
            w="100%"
            name="wechat_code"
            label={t('settings.bindings.code')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth loading={bind.isPending} disabled={!code.trim()}>
            {t('settings.bindings.bind')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
