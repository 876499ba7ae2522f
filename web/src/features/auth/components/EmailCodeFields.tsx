import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showInfo, showSuccess } from '../../../lib/toast';
import { useCountdown } from '../../../lib/use-countdown';
import { useSendVerificationCode } from '../api/register';

export const RESEND_SECONDS = 30;

interface EmailCodeFieldsProps {
  email: string;
  code: string;
  onEmail: (value: string) => void;
  onCode: (value: string) => void;
  /** The bot-check token, or null while the check is still running. */
  turnstile: string | null;
}

/** Email, "get code" with a 30 s resend countdown, and the code field. */
export function EmailCodeFields({ email, code, onEmail, onCode, turnstile }: EmailCodeFieldsProps) {
  const { t } = useTranslation();
  const send = useSendVerificationCode();
  const countdown = useCountdown(RESEND_SECONDS);

  const sendCode = () => {
    if (!email.trim()) {
      showInfo(t('register.emailRequired'));
      return;
    }
    if (turnstile === null) {
      showInfo(t('register.turnstileWait'));
      return;
    }
    countdown.start();
    send.mutate({ email: email.trim(), turnstile }, { onSuccess: () => showSuccess(t('register.codeSent')) });
  };

  return (
    <>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          type="email"
          label={t('register.email')}
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => onEmail(event.currentTarget.value)}
        />
        <Button
          variant="default"
          onClick={sendCode}
          disabled={countdown.remaining > 0}
          loading={send.isPending}
        >
          {countdown.remaining > 0
            ? t('register.retry', { countdown: countdown.remaining })
            : t('register.getCode')}
        </Button>
      </Group>
      <TextInput
        label={t('register.code')}
        name="verification_code"
        value={code}
        onChange={(event) => onCode(event.currentTarget.value)}
      />
    </>
  );
}
