import { Button, Card, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { redeemInput } from '@switchyard/contract/redemptions';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader';
import { renderQuota } from '../../../lib/format';
import { useServerStatus } from '../../../lib/server-status';
import { isRoot, useSessionUser } from '../../../lib/session';
import { showError } from '../../../lib/toast';
import { useTopUpOffer } from '../api/payments';
import { useOwnQuota, useRedeemCode } from '../api/topup';
import { OrdersCard } from './OrdersCard';
import { PaymentReturn } from './PaymentReturn';
import { PayOnlineCard } from './PayOnlineCard';

/** A card's title with its one-line explanation. */
function CardHeading({ title, hint }: { title: string; hint: string }) {
  return (
    <div>
      <Title order={4}>{title}</Title>
      <Text c="dimmed" size="sm" mt={4}>
        {hint}
      </Text>
    </div>
  );
}

/** Top-up: the current quota, paying online, the configured top-up link, redeeming a code, the orders. */
export function TopupPage() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const quota = useOwnQuota();
  const redeem = useRedeemCode();
  const offer = useTopUpOffer().data;
  const payOnline = offer && Array.isArray(offer.methods) && offer.methods.length > 0;
  const root = isRoot(useSessionUser());
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = redeemInput.safeParse({ key: code });
    if (!parsed.success) {
      const tooLong = parsed.error.issues.some((issue) => issue.code === 'too_big');
      return setError(tooLong ? t('topup.invalidCode') : t('topup.enterCode'));
    }
    setError(undefined);
    redeem.mutate(parsed.data.key, { onSuccess: () => setCode('') });
  };

  const openTopUpLink = () => {
    const link = status?.top_up_link;
    if (!link) return showError(t('topup.noLink'));
    window.open(link, '_blank', 'noopener,noreferrer');
  };

  return (
    <>
      <PageHeader title={t('topup.title')} />
      <PaymentReturn />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={960}>
        <Card withBorder padding="lg">
          <Stack gap="md" justify="space-between" h="100%">
            <CardHeading title={t('topup.balanceTitle')} hint={t('topup.balanceHint')} />
            <Stack gap={0} align="center" py="sm">
              <Text fz={36} fw={700} c="blue" data-testid="topup-quota">
                {quota.data === undefined ? '…' : renderQuota(quota.data)}
              </Text>
              <Text c="dimmed" size="sm">
                {t('topup.currentQuota')}
              </Text>
            </Stack>
            <Button variant="light" onClick={openTopUpLink} fullWidth>
              {t('topup.getCode')}
            </Button>
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <form onSubmit={submit} noValidate style={{ height: '100%' }}>
            <Stack gap="md" justify="space-between" h="100%">
              <CardHeading title={t('topup.redeemTitle')} hint={t('topup.redeemHint')} />
              <Stack gap="sm">
                <TextInput
                  placeholder={t('topup.codePlaceholder')}
                  aria-label={t('topup.codePlaceholder')}
                  name="key"
                  autoComplete="off"
                  value={code}
                  onChange={(event) => {
                    setCode(event.currentTarget.value);
                    setError(undefined);
                  }}
                  error={error}
                />
                <Button type="submit" color="green" loading={redeem.isPending} fullWidth>
                  {t('topup.redeem')}
                </Button>
              </Stack>
            </Stack>
          </form>
        </Card>
        {payOnline && <PayOnlineCard offer={offer} />}
        {(payOnline || root) && <OrdersCard all={root} />}
      </SimpleGrid>
    </>
  );
}
