import { Card, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PriceRow } from '@switchyard/contract/pricing';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListTable } from '../../../components/ListTable';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useSessionUser } from '../../../lib/session';
import { usePriceSheet } from '../api/price-sheet';
import { PRICE_ORDERS, type PriceOrder, visiblePrices } from './price-order';
import { PriceBadges, usePriceText } from './price-text';

const COLUMNS = ['model', 'group', 'input', 'output', 'cacheRead', 'cacheWrite'] as const;
const SORTED_BY: readonly (PriceOrder | null)[] = [null, null, 'input', 'output', null, null];

/** The price list: the models of the user's group (or the groups shown to visitors) and their prices. */
export function PricingPage() {
  const { t } = useTranslation();
  const signedIn = useSessionUser() !== null;
  const phone = useMediaQuery('(max-width: 36em)');
  const sheet = usePriceSheet(signedIn);
  const [keyword, setKeyword] = useState('');
  const [order, setOrder] = useState<PriceOrder>('');
  const rows = visiblePrices(sheet.data?.rows ?? [], keyword, order);
  const listOrder = { section: 'pricing', orders: PRICE_ORDERS, value: order, set: setOrder };

  const body = () => {
    if (sheet.isLoading) return <PageLoading page={t('pageNames.pricing')} />;
    if (sheet.isError)
      return signedIn ? (
        <EmptyPanel title={t('common.loadFailed')} />
      ) : (
        <EmptyPanel title={t('pricing.signInNeeded')} text={t('pricing.signInNeededText')} />
      );
    if ((sheet.data?.rows.length ?? 0) === 0)
      return <EmptyPanel title={t('pricing.empty')} text={t('pricing.emptyText')} />;
    if (rows.length === 0) return <EmptyPanel title={t('pricing.noMatch')} />;
    return phone ? (
      <PriceCards rows={rows} />
    ) : (
      <ListTable
        miw={860}
        testId="price-table"
        headers={COLUMNS.map((column) => t(`pricing.columns.${column}`))}
        sort={{ order: listOrder, byColumn: SORTED_BY }}
      >
        {rows.map((row) => (
          <PriceTableRow key={`${row.group}/${row.model}`} row={row} />
        ))}
      </ListTable>
    );
  };

  return (
    <>
      <PageHeader title={t('pricing.title')} />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Text size="sm" c="dimmed" mb="sm">
          {t(signedIn ? 'pricing.intro' : 'pricing.introVisitor')}
        </Text>
        {sheet.data && sheet.data.groups.length > 0 && (
          <Text size="sm" mb="sm" data-testid="price-groups">
            {t('pricing.groups', { groups: sheet.data.groups.join(', ') })}
          </Text>
        )}
        <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            style={{ flex: '1 1 260px' }}
            placeholder={t('pricing.search')}
            aria-label={t('pricing.search')}
            value={keyword}
            onChange={(event) => setKeyword(event.currentTarget.value)}
          />
          <Select
            hiddenFrom="xs"
            w="100%"
            aria-label={t('pricing.sort.label')}
            data={PRICE_ORDERS.map((value) => ({ value, label: t(`pricing.sort.${value || 'default'}`) }))}
            value={order}
            allowDeselect={false}
            onChange={(next) => setOrder((next ?? '') as PriceOrder)}
          />
        </Group>
        {body()}
      </Paper>
    </>
  );
}

function PriceTableRow({ row }: { row: PriceRow }) {
  const price = usePriceText();
  return (
    <Table.Tr data-model={row.model}>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text ff="monospace" size="sm">
            {row.model}
          </Text>
          <PriceBadges row={row} />
        </Group>
      </Table.Td>
      <Table.Td>{row.group}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{price(row, row.input)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{price(row, row.output)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{price(row, row.cacheRead)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{price(row, row.cacheWrite)}</Table.Td>
    </Table.Tr>
  );
}

/** Prices on phones: one card per model. */
function PriceCards({ rows }: { rows: PriceRow[] }) {
  const { t } = useTranslation();
  const price = usePriceText();
  const fields = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;
  return (
    <Stack gap="sm" data-testid="price-cards">
      {rows.map((row) => (
        <Card withBorder padding="sm" key={`${row.group}/${row.model}`} data-model={row.model}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} ff="monospace" truncate="end" miw={0}>
              {row.model}
            </Text>
            <Text size="xs" c="dimmed">
              {row.group}
            </Text>
          </Group>
          <PriceBadges row={row} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={4} mt="xs">
            {fields
              .filter((field) => row[field] !== undefined)
              .map((field) => (
                <Text size="xs" key={field}>
                  <Text span c="dimmed" inherit>
                    {t(`pricing.columns.${field}`)}:
                  </Text>{' '}
                  {price(row, row[field])}
                </Text>
              ))}
          </SimpleGrid>
        </Card>
      ))}
    </Stack>
  );
}
