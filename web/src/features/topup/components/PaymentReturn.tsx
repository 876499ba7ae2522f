import { Alert } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { renderQuota } from '../../../lib/format';
import { useOwnOrder } from '../api/payments';

/** Back from a gateway (`?order=`): the order's state, asked again until its payment lands. */
export function PaymentReturn() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const tradeNo = params.get('order');
  const order = useOwnOrder(tradeNo);
  const queryClient = useQueryClient();
  const status = order.data?.status;
  useEffect(() => {
    if (status === 'paid') void queryClient.invalidateQueries({ queryKey: ['topup'] });
  }, [status, queryClient]);
  if (!tradeNo || !order.data) return null;
  if (status === 'paid' || status === 'refunded') {
    return (
      <Alert color="green" title={t('topup.paidTitle')} data-testid="topup-return" maw={960} mb="md">
        {t('topup.paidText', { quota: renderQuota(order.data.quota) })}
      </Alert>
    );
  }
  if (status === 'pending' && !params.get('cancelled')) {
    return (
      <Alert color="blue" title={t('topup.waitingTitle')} data-testid="topup-return" maw={960} mb="md">
        {t('topup.waitingText')}
      </Alert>
    );
  }
  return (
    <Alert color="gray" title={t('topup.notPaidTitle')} data-testid="topup-return" maw={960} mb="md">
      {t('topup.notPaidText')}
    </Alert>
  );
}
