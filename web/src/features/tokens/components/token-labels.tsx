import { Badge, Text } from '@mantine/core';
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

/** The key's limits in short ("60 RPM · 2 at once"), '' for none. */
export function limitsText(token: TokenRow, t: TFunction): string {
  return [
    token.rpm_limit ? t('limits.rpm', { count: token.rpm_limit }) : '',
    token.tpm_limit ? t('limits.tpm', { count: token.tpm_limit }) : '',
    token.concurrency_limit ? t('limits.concurrency', { count: token.concurrency_limit }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The period's budget: spent of the budget, and when it starts over; '' without a budget. */
export function budgetText(token: TokenRow, t: TFunction): string {
  if (!token.budget_quota) return '';
  return t('limits.budgetUsed', {
    used: renderTokenQuota(token.budget_used),
    quota: renderTokenQuota(token.budget_quota),
    at: renderTimestamp(token.budget_reset_at),
  });
}

/** The key's limits and budget, each on a line of its own; a dash for none. */
export function TokenLimits({ token }: { token: TokenRow }) {
  const { t } = useTranslation();
  const limits = limitsText(token, t);
  if (!limits && !token.budget_quota) return <>–</>;
  return (
    <>
      {limits && (
        <Text span inherit display="block">
          {limits}
        </Text>
      )}
      {token.budget_quota > 0 && (
        <Text span size="xs" c="dimmed" display="block" data-testid="token-budget">
          {t('limits.budgetUsedShort', {
            used: renderTokenQuota(token.budget_used),
            quota: renderTokenQuota(token.budget_quota),
          })}
          <br />
          {t('limits.resets', { at: renderTimestamp(token.budget_reset_at) })}
        </Text>
      )}
    </>
  );
}
