import { Badge } from '@mantine/core';
import { TokenStatus } from '@switchyard/contract/roles';
import { NEVER_EXPIRES } from '@switchyard/contract/tokens';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { renderTimestamp, renderTokenQuota } from '../../../lib/format';
import type { TokenRow } from '../api/tokens-list';

const STATUS_LABELS: Record<number, { key: string; color: string }> = {
  [TokenStatus.enabled]: { key: 'enabled', color: 'green' },
  [TokenStatus.disabled]: { key: 'disabled', color: 'red' },
  [TokenStatus.expired]: { key: 'expired', color: 'yellow' },
  [TokenStatus.exhausted]: { key: 'exhausted', color: 'gray' },
};

export function TokenStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const label = STATUS_LABELS[status] ?? { key: 'unknown', color: 'dark' };
  return (
    <Badge variant="outline" color={label.color} data-status={status}>
      {t(`tokens.statuses.${label.key}`)}
    </Badge>
  );
}

export const tokenName = (token: TokenRow, t: TFunction): string => token.name || t('tokens.noName');

export const remainingText = (token: TokenRow, t: TFunction): string =>
  token.unlimited_quota ? t('tokens.unlimited') : renderTokenQuota(token.remain_quota);

export const usedText = (token: TokenRow): string => renderTokenQuota(token.used_quota);

export const expiryText = (token: TokenRow, t: TFunction): string =>
  token.expired_time === NEVER_EXPIRES ? t('tokens.never') : renderTimestamp(token.expired_time);
