import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListCard } from '../../../components/ListCard';
import { renderQuota, renderTimestamp } from '../../../lib/format';
import type { RedemptionRow } from '../api/redemptions-list';
import { RedemptionRowActions } from './RedemptionRowActions';
import { RedemptionStatusBadge, redeemedText, redemptionName } from './redemption-labels';

interface RedemptionCardsProps {
  codes: RedemptionRow[];
  onCopyFailed: (key: string) => void;
}

/** The code list on phones: one card per code instead of a wide table. */
export function RedemptionCards({ codes, onCopyFailed }: RedemptionCardsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="redemptions-cards">
      {codes.map((code) => (
        <ListCard
          key={code.id}
          data-code-id={code.id}
          title={
            <>
              #{code.id} {redemptionName(code, t)}
            </>
          }
          badge={<RedemptionStatusBadge status={code.status} />}
          lines={[
            <>
              {t('redemptions.columns.quota')} {renderQuota(code.quota)}
            </>,
            <>
              {t('redemptions.columns.created')} {renderTimestamp(code.created_time)}
            </>,
            <>
              {t('redemptions.columns.redeemed')} {redeemedText(code, t)}
            </>,
          ]}
          actions={<RedemptionRowActions code={code} onCopyFailed={onCopyFailed} wrap />}
        />
      ))}
    </Stack>
  );
}
