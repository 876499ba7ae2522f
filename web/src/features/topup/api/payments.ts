import type {
  CreatedOrder,
  CreateOrderInput,
  PaymentOrder,
  RefundResult,
  TopUpOffer,
} from '@switchyard/contract/payments';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, describeError, fetchData } from '../../../lib/api-client';
import { renderQuota } from '../../../lib/format';
import { showError, showSuccess } from '../../../lib/toast';

const ordersKey = ['topup', 'orders'] as const;

/** GET /api/topup/offer: the gateways root enabled and the prices. */
export const useTopUpOffer = () =>
  useQuery({ queryKey: ['topup', 'offer'], queryFn: () => fetchData<TopUpOffer>('/api/topup/offer') });

/** A page (from 0) of the caller's orders, or (root, `all`) of everyone's. */
export const useOrders = (all: boolean, page: number) =>
  useQuery({
    queryKey: [...ordersKey, all ? 'all' : 'own', page],
    queryFn: () =>
      fetchData<PaymentOrder[]>(all ? '/api/topup/order/' : '/api/topup/order/self', { query: { p: page } }),
    placeholderData: (previous) => previous,
  });

/** One order of the caller's, asked again every 2 s while it is pending (the payment may still land). */
export const useOwnOrder = (tradeNo: string | null) =>
  useQuery({
    queryKey: [...ordersKey, 'one', tradeNo],
    queryFn: () => fetchData<PaymentOrder>(`/api/topup/order/self/${encodeURIComponent(tradeNo ?? '')}`),
    enabled: tradeNo !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 2000 : false),
  });

/** POST /api/topup/order, then off to the gateway's page. */
export function useStartPayment() {
  return useMutation({
    mutationFn: async (input: CreateOrderInput) => {
      const { data } = await api.post<CreatedOrder>('/api/topup/order', input, { silent: true });
      if (!data) throw new Error('no order');
      return data;
    },
    onSuccess: (order) => window.location.assign(order.url),
    onError: (error) => showError(describeError(error)),
  });
}

/** Root: POST /api/topup/order/:id/refund. */
export function useRefundOrder() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await api.post<RefundResult>(`/api/topup/order/${id}/refund`, {}, { silent: true });
      return data ?? { taken: 0, short: 0 };
    },
    onSuccess: (result) => {
      const amounts = { taken: renderQuota(result.taken), short: renderQuota(result.short) };
      showSuccess(result.short > 0 ? t('topup.refundedShort', amounts) : t('topup.refunded', amounts));
      void queryClient.invalidateQueries({ queryKey: ordersKey });
    },
    onError: (error) => showError(describeError(error)),
  });
}
