import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmailSendCodeField } from '../../../components/EmailSendCodeField';
import { showInfo, showSuccess } from '../../../lib/toast';
import { useSendVerificationCode } from '../api/register';

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

  const sendCode = () => {
    if (!email.trim()) {
      showInfo(t('register.emailRequired'));
      return false;
    }
    if (turnstile === null) {
      showInfo(t('register.turnstileWait'));
      return false;
    }
    send.mutate({ email: email.trim(), turnstile }, { onSuccess: () => showSuccess(t('register.codeSent')) });
    return true;
  };

  return (
    <>
      <EmailSendCodeField
        label={t('register.email')}
        name="email"
        autoComplete="email"
        value={email}
        onChange={onEmail}
        onSend={sendCode}
        sending={send.isPending}
        sendLabel={t('register.getCode')}
        resendLabel={(countdown) => t('register.retry', { countdown })}
      />
      <TextInput
        label={t('register.code')}
        name="verification_code"
        value={code}
        onChange={(event) => onCode(event.currentTarget.value)}
      />
    </>
  );
}
