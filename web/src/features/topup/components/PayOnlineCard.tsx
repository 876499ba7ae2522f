import { Button, Card, Chip, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { EPayType, PaymentMethod, TopUpOffer } from '@switchyard/contract/payments';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../../lib/format';
import { useStartPayment } from '../api/payments';
import { priceOf, renderMoney } from './money';

const BUTTONS: Array<{ method: PaymentMethod; type?: EPayType; label: string }> = [
  { method: 'stripe', label: 'topup.payStripe' },
  { method: 'epay', type: 'alipay', label: 'topup.payAlipay' },
  { method: 'epay', type: 'wxpay', label: 'topup.payWechat' },
];

/** Paying online: an amount (offered or typed), its price in the shop's currency, then a gateway. */
export function PayOnlineCard({ offer }: { offer: TopUpOffer }) {
  const { t, i18n } = useTranslation();
  const start = useStartPayment();
  const [amount, setAmount] = useState<number>(
    Math.max(offer.amounts[0] ?? offer.min_amount, offer.min_amount),
  );
  const valid = Number.isInteger(amount) && amount >= offer.min_amount;
  const price = renderMoney(priceOf(offer, valid ? amount : 0), offer.currency, i18n.language);

  return (
    <Card withBorder padding="lg" data-testid="topup-pay-online">
      <Stack gap="md">
        <div>
          <Title order={4}>{t('topup.payTitle')}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('topup.payHint', {
              price: renderMoney(offer.unit_price, offer.currency, i18n.language),
              quota: renderQuota(offer.quota_per_unit),
            })}
          </Text>
        </div>
        {offer.amounts.length > 0 && (
          <Chip.Group value={String(amount)} onChange={(value) => setAmount(Number(value))}>
            <Group gap="xs">
              {offer.amounts
                .filter((option) => option >= offer.min_amount)
                .map((option) => (
                  <Chip key={option} value={String(option)} size="md" styles={{ label: { minHeight: 44 } }}>
                    {option}
                  </Chip>
                ))}
            </Group>
          </Chip.Group>
        )}
        <NumberInput
          label={t('topup.amount')}
          description={t('topup.minAmount', { min: offer.min_amount })}
          min={offer.min_amount}
          allowDecimal={false}
          allowNegative={false}
          hideControls
          inputMode="numeric"
          value={amount}
          onChange={(value) => setAmount(typeof value === 'number' ? value : Number(value) || 0)}
          error={valid ? undefined : t('topup.minAmount', { min: offer.min_amount })}
        />
        <Text size="sm" data-testid="topup-price">
          {t('topup.youPay', {
            price,
            quota: renderQuota(valid ? Math.round(amount * offer.quota_per_unit) : 0),
          })}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {BUTTONS.filter((button) => offer.methods.includes(button.method)).map((button) => (
            <Button
              key={button.label}
              mih={44}
              disabled={!valid}
              loading={start.isPending && start.variables?.epay_type === button.type}
              onClick={() =>
                start.mutate({
                  method: button.method,
                  amount,
                  ...(button.type ? { epay_type: button.type } : {}),
                })
              }
            >
              {t(button.label)}
            </Button>
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
