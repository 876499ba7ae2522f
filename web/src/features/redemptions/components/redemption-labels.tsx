import { Badge } from '@mantine/core';
import { RedemptionStatus } from '@switchyard/contract/roles';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import type { RedemptionRow } from '../api/redemptions-list';

const STATUS_LABELS: Record<number, { key: string; color: string }> = {
  [RedemptionStatus.unused]: { key: 'unused', color: 'green' },
  [RedemptionStatus.disabled]: { key: 'disabled', color: 'red' },
  [RedemptionStatus.used]: { key: 'used', color: 'gray' },
};

export function RedemptionStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const label = STATUS_LABELS[status] ?? { key: 'unknown', color: 'dark' };
  return (
    <Badge variant="outline" color={label.color} data-status={status}>
      {t(`redemptions.statuses.${label.key}`)}
    </Badge>
  );
}

export const redemptionName = (code: RedemptionRow, t: TFunction): string =>
  code.name || t('redemptions.noName');

export const redeemedText = (code: RedemptionRow, t: TFunction): string =>
  code.redeemed_time ? renderTimestamp(code.redeemed_time) : t('redemptions.notRedeemed');
