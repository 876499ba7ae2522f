import { Button, Image, Modal, type ModalProps, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';

/** What a page gives a WeChat modal: whether it is open, how to close it, the QR code image. */
export interface WeChatModalProps {
  opened: boolean;
  onClose: () => void;
  qrCode: string;
}

interface WeChatCodeModalProps extends WeChatModalProps {
  texts: { title: string; qrAlt: string; tip: string; code: string; submit: string };
  /** Called with the trimmed code; `clear` empties the field (after success). */
  onCode: (code: string, clear: () => void) => void;
  pending: boolean;
  size?: ModalProps['size'];
  /** The code field's form name, when it has one. */
  name?: string;
  /** Keep the submit button off while the field is empty. */
  needsCode?: boolean;
}

/** The official account's QR code and the code it sends (valid three minutes). */
export function WeChatCodeModal({
  opened,
  onClose,
  qrCode,
  texts,
  onCode,
  pending,
  size,
  name,
  needsCode = false,
}: WeChatCodeModalProps) {
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    onCode(code.trim(), () => setCode(''));
  };

  return (
    <Modal opened={opened} onClose={onClose} title={texts.title} centered size={size}>
      <form onSubmit={submit}>
        <Stack align="center">
          {qrCode && <Image src={qrCode} alt={texts.qrAlt} w={200} h={200} fit="contain" />}
          <Text size="sm" c="dimmed" ta="center">
            {texts.tip}
          </Text>
          <TextInput
            w="100%"
            name={name}
            label={texts.code}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth loading={pending} disabled={needsCode && !code.trim()}>
            {texts.submit}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
