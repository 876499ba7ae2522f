import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { OrderStatus, PaymentOrder } from '@switchyard/contract/payments';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { ListPagination } from '../../../components/ListPagination';
import { renderQuota, renderTimestamp } from '../../../lib/format';
import { useOrders, useRefundOrder } from '../api/payments';
import { renderMoney } from './money';

const STATUS_COLOR: Record<OrderStatus, string> = {
  pending: 'yellow',
  paid: 'green',
  expired: 'gray',
  failed: 'red',
  refunded: 'grape',
};

/** One order, as a row that wraps on a phone; root may refund a paid one. */
function OrderRow({ order, all }: { order: PaymentOrder; all: boolean }) {
  const { t, i18n } = useTranslation();
  const refund = useRefundOrder();
  return (
    <Stack gap={4} py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600} size="sm">
          {renderMoney(order.money, order.currency, i18n.language)} → {renderQuota(order.quota)}
        </Text>
        <Badge color={STATUS_COLOR[order.status]} variant="light">
          {t(`topup.status.${order.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {[
          all ? order.username : '',
          t(`topup.method.${order.method}`),
          order.trade_no,
          renderTimestamp(order.created_at),
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {order.status === 'refunded' && (
        <Text size="xs" c="dimmed">
          {t('topup.refundedQuota', { quota: renderQuota(order.refunded_quota) })}
        </Text>
      )}
      {order.error && (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
          {order.error}
        </Text>
      )}
      {all && order.status === 'paid' && (
        <Group>
          <ConfirmButton
            color="red"
            variant="light"
            mih={44}
            loading={refund.isPending}
            label={t('topup.refund')}
            confirmLabel={t('topup.refundConfirm', { quota: renderQuota(order.quota), user: order.username })}
            onConfirm={() => refund.mutate(order.id)}
          />
        </Group>
      )}
    </Stack>
  );
}

/** The caller's orders; root's card lists everyone's, with refunds. */
export function OrdersCard({ all }: { all: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const orders = useOrders(all, page);
  const rows = Array.isArray(orders.data) ? orders.data : [];
  // The server answers pages without a total: a full page may have another after it.
  const pages = page + 1 + (rows.length === ITEMS_PER_PAGE ? 1 : 0);
  return (
    <Card withBorder padding="lg" data-testid="topup-orders">
      <Title order={4}>{all ? t('topup.allOrders') : t('topup.myOrders')}</Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm" mt="sm">
          {t('topup.noOrders')}
        </Text>
      ) : (
        <Stack gap={0} mt="sm">
          {rows.map((order) => (
            <OrderRow key={order.id} order={order} all={all} />
          ))}
        </Stack>
      )}
      {pages > 1 && <ListPagination total={pages} value={page + 1} onChange={(next) => setPage(next - 1)} />}
    </Card>
  );
}
