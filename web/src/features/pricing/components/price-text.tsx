import { Badge, Group, Tooltip } from '@mantine/core';
import type { PriceRow } from '@switchyard/contract/pricing';
import { useTranslation } from 'react-i18next';
import { renderQuota } from '../../../lib/format';

/** Up to six decimals: a million cheap tokens are a fraction of a cent. */
const PRICE_DIGITS = 6;

const UNIT_KEY = {
  tokens: 'pricing.perMillion',
  image: 'pricing.perImage',
  second: 'pricing.perSecond',
} as const;

/** A price in the console's currency (or quota), with its unit. */
export function usePriceText() {
  const { t } = useTranslation();
  return (row: PriceRow, quota: number | undefined): string =>
    quota === undefined
      ? t('pricing.none')
      : t(UNIT_KEY[row.unit], { price: trimmed(renderQuota(quota, 2), quota) });
}

/** renderQuota at up to six decimals, without the zeros that say nothing ($0.150000 → $0.15). */
function trimmed(twoDigits: string, quota: number): string {
  const precise = renderQuota(quota, PRICE_DIGITS);
  if (!precise.includes('.')) return twoDigits;
  const cut = precise.replace(/0+$/, '');
  const [, decimals = ''] = cut.split('.');
  return decimals.length < 2 ? twoDigits : cut;
}

/** The badges of a row: no set price, or a price that varies by channel. */
export function PriceBadges({ row }: { row: PriceRow }) {
  const { t } = useTranslation();
  if (row.listed && !row.varies) return null;
  return (
    <Group gap={4} wrap="nowrap">
      {!row.listed && (
        <Tooltip
          label={t('pricing.unlistedHint')}
          multiline
          w={260}
          events={{ hover: true, focus: true, touch: true }}
        >
          <Badge color="orange" variant="light" tabIndex={0} data-testid="price-unlisted">
            {t('pricing.unlisted')}
          </Badge>
        </Tooltip>
      )}
      {row.varies && (
        <Tooltip
          label={t('pricing.variesHint')}
          multiline
          w={260}
          events={{ hover: true, focus: true, touch: true }}
        >
          <Badge color="gray" variant="light" tabIndex={0}>
            {t('pricing.varies')}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}
