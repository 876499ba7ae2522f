import { Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
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
        <Card key={code.id} withBorder padding="sm" data-code-id={code.id}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} truncate="end">
              #{code.id} {redemptionName(code, t)}
            </Text>
            <RedemptionStatusBadge status={code.status} />
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            {t('redemptions.columns.quota')} {renderQuota(code.quota)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('redemptions.columns.created')} {renderTimestamp(code.created_time)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('redemptions.columns.redeemed')} {redeemedText(code, t)}
          </Text>
          <Group mt="sm">
            <RedemptionRowActions code={code} onCopyFailed={onCopyFailed} wrap />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
