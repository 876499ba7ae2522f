import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { TwoFactorSetup } from '@switchyard/contract/two-factor';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { downloadText } from '../../../lib/download';
import { showSuccess, showWarning } from '../../../lib/toast';
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRenewRecoveryCodes,
  useStartTwoFactor,
  useTwoFactorStatus,
} from '../api/two-factor';
import { PasskeyList } from './PasskeyList';

/** A code field and its button, as one form (enrolment's confirmation, turning it off). */
function CodeForm({
  label,
  button,
  color,
  loading,
  onCode,
  testId,
}: {
  label: string;
  button: string;
  color?: string;
  loading: boolean;
  onCode: (code: string) => void;
  testId: string;
}) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) onCode(code.trim());
  };
  return (
    <form onSubmit={submit} data-testid={testId}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={label}
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          style={{ flex: '1 1 12rem' }}
          maxLength={32}
        />
        <Button type="submit" color={color} loading={loading} disabled={!code.trim()}>
          {button}
        </Button>
      </Group>
    </form>
  );
}

/** The recovery codes, shown once after enrolment: copied or downloaded before leaving. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const copy = async () => {
    if (await copyText(text)) showSuccess(t('settings.twoFactor.codesCopied'));
    else showWarning(t('errors.copyFailed'));
  };
  return (
    <Stack gap="sm" mt="md" data-testid="recovery-codes">
      <Alert color="yellow" variant="light" p="sm">
        <Text size="sm">{t('settings.twoFactor.codesNote')}</Text>
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
        {codes.map((code) => (
          <Code key={code} fz="sm" ta="center" py={6}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <Button variant="light" onClick={copy}>
          {t('settings.twoFactor.copyCodes')}
        </Button>
        <Button variant="light" onClick={() => downloadText(`${text}\n`, 'recovery-codes.txt')}>
          {t('settings.twoFactor.downloadCodes')}
        </Button>
        <Button onClick={onDone}>{t('settings.twoFactor.codesSaved')}</Button>
      </Group>
    </Stack>
  );
}

/** Enrolment: the QR code and the secret typed by hand, then a code from the app confirms it. */
function Enrolment({ setup, onEnabled }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const enable = useEnableTwoFactor();
  return (
    <Stack gap="sm" mt="md" data-testid="two-factor-enrolment">
      <Text size="sm">{t('settings.twoFactor.scan')}</Text>
      <Image
        src={setup.qr_code}
        alt={t('settings.twoFactor.qrAlt')}
        w={200}
        h={200}
        bg="white"
        radius="sm"
        data-testid="two-factor-qr"
      />
      <Text size="sm">{t('settings.twoFactor.manual')}</Text>
      <Code fz="sm" style={{ wordBreak: 'break-all' }} data-testid="two-factor-secret">
        {setup.secret}
      </Code>
      <CodeForm
        label={t('settings.twoFactor.code')}
        button={t('settings.twoFactor.confirm')}
        loading={enable.isPending}
        testId="two-factor-confirm"
        onCode={(code) =>
          enable.mutate(code, {
            onSuccess: (answer) => {
              showSuccess(t('settings.twoFactor.enabled'));
              onEnabled(answer.recovery_codes);
            },
          })
        }
      />
    </Stack>
  );
}

/** Two-factor sign-in in the personal settings: turning it on (QR, secret, code, recovery codes) and off. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const start = useStartTwoFactor();
  const disable = useDisableTwoFactor();
  const renew = useRenewRecoveryCodes();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const enabled = status.data?.enabled === true;

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="two-factor-card">
      <Group justify="space-between" gap="xs">
        <Title order={3} fz="h4">
          {t('settings.twoFactor.title')}
        </Title>
        {status.data && (
          <Badge color={enabled ? 'green' : 'gray'} variant="light" data-testid="two-factor-state">
            {enabled ? t('settings.twoFactor.on') : t('settings.twoFactor.off')}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        {t('settings.twoFactor.text')}
      </Text>
      {status.data?.required && !enabled && (
        <Alert color="red" variant="light" mt="sm" p="sm" data-testid="two-factor-required">
          <Text size="sm">{t('settings.twoFactor.required')}</Text>
        </Alert>
      )}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : enabled ? (
        <Stack gap="sm" mt="md">
          <Text size="sm">
            {t('settings.twoFactor.codesLeft', { count: status.data?.recovery_codes_left ?? 0 })}
          </Text>
          <CodeForm
            label={t('settings.twoFactor.renewCode')}
            button={t('settings.twoFactor.renew')}
            loading={renew.isPending}
            testId="two-factor-renew"
            onCode={(code) => renew.mutate(code, { onSuccess: (answer) => setCodes(answer.recovery_codes) })}
          />
          <CodeForm
            label={t('settings.twoFactor.disableCode')}
            button={t('settings.twoFactor.disable')}
            color="red"
            loading={disable.isPending}
            testId="two-factor-disable"
            onCode={(code) =>
              disable.mutate(code, { onSuccess: () => showSuccess(t('settings.twoFactor.disabled')) })
            }
          />
          <PasskeyList />
        </Stack>
      ) : setup ? (
        <Enrolment
          setup={setup}
          onEnabled={(recovery) => {
            setSetup(null);
            setCodes(recovery);
          }}
        />
      ) : (
        <Button
          mt="md"
          loading={start.isPending}
          disabled={!status.data}
          onClick={() => start.mutate(undefined, { onSuccess: setSetup })}
        >
          {t('settings.twoFactor.enable')}
        </Button>
      )}
    </Paper>
  );
}
