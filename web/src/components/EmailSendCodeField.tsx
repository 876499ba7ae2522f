import { Button, Group, TextInput } from '@mantine/core';
import { useCountdown } from '../lib/use-countdown';

/** How long "get code" waits before it may mail again (spec section 9). */
const RESEND_SECONDS = 30;

interface EmailSendCodeFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete?: string;
  /** Mails a code; false when it did not (a missing address, the bot check still running). */
  onSend: () => boolean;
  sending: boolean;
  sendLabel: string;
  resendLabel: (countdown: number) => string;
}

/** An email address with a "get code" button that counts down before it may mail again. */
export function EmailSendCodeField({
  onSend,
  sending,
  sendLabel,
  resendLabel,
  onChange,
  ...input
}: EmailSendCodeFieldProps) {
  const countdown = useCountdown(RESEND_SECONDS);
  const send = () => {
    if (onSend()) countdown.start();
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        style={{ flex: 1 }}
        type="email"
        {...input}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      <Button variant="default" onClick={send} disabled={countdown.remaining > 0} loading={sending}>
        {countdown.remaining > 0 ? resendLabel(countdown.remaining) : sendLabel}
      </Button>
    </Group>
  );
}
