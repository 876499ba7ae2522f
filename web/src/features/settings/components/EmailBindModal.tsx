import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { emailAddress } from '@switchyard/contract/auth';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailSendCodeField } from '../../../components/EmailSendCodeField';
import { Turnstile } from '../../../components/Turnstile';
import { useServerStatus } from '../../../lib/server-status';
import { showInfo, showSuccess } from '../../../lib/toast';
import { useBindEmail, useSendBindCode } from '../api/personal';

/** Email address, a mailed code (resend after 30 s), then the binding. */
export function EmailBindModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const status = useServerStatus();
  const send = useSendBindCode();
  const bind = useBindEmail();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [turnstile, setTurnstile] = useState('');
  const [emailError, setEmailError] = useState('');
  const turnstileOn = Boolean(status?.turnstile_check);

  /** The address as the server will check it (the contract's schema), or null with the field marked. */
  const checkedEmail = (): string | null => {
    const parsed = emailAddress.safeParse(email);
    setEmailError(parsed.success ? '' : t('settings.bindings.emailInvalid'));
    return parsed.success ? parsed.data : null;
  };

  const sendCode = () => {
    if (!email.trim()) {
      showInfo(t('settings.bindings.emailRequired'));
      return false;
    }
    const address = checkedEmail();
    if (!address) return false;
    if (turnstileOn && !turnstile) {
      showInfo(t('settings.bindings.turnstileWait'));
      return false;
    }
    send.mutate(
      { email: address, turnstile },
      { onSuccess: () => showSuccess(t('settings.bindings.codeSent')) },
    );
    return true;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = checkedEmail();
    if (!address || !code.trim()) return;
    bind.mutate(
      { email: address, code: code.trim() },
      {
        onSuccess: () => {
          showSuccess(t('settings.bindings.emailBound'));
          setCode('');
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.bindings.emailTitle')} centered>
      <form onSubmit={submit}>
        <Stack>
          <EmailSendCodeField
            name="bind_email"
            label={t('settings.bindings.emailAddress')}
            value={email}
            error={emailError || undefined}
            onChange={(value) => {
              setEmail(value);
              setEmailError('');
            }}
            onSend={sendCode}
            sending={send.isPending}
            sendLabel={t('settings.bindings.getCode')}
            resendLabel={(countdown) => t('settings.bindings.resend', { countdown })}
          />
          <TextInput
            name="bind_code"
            label={t('settings.bindings.code')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          {turnstileOn && status?.turnstile_site_key && (
            <Turnstile siteKey={status.turnstile_site_key} onToken={setTurnstile} />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={bind.isPending} disabled={!email.trim() || !code.trim()}>
              {t('settings.bindings.confirmBind')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
