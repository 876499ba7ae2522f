import { Button, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListBody, ListEmpty } from '../../../components/ListBody';
import { ListSearchBox } from '../../../components/ListSearchBox';
import { PageHeader } from '../../../components/PageHeader';
import { useKeywordSearch } from '../../../lib/use-keyword-search';
import { useListPaging } from '../../../lib/use-list-paging';
import { useRedemptionPages, useRedemptionSearch } from '../api/redemptions-list';
import { RedemptionCards } from './RedemptionCards';
import { RedemptionsTable } from './RedemptionsTable';

export function RedemptionsPage() {
  const { t } = useTranslation();
  const search = useKeywordSearch();
  const pages = useRedemptionPages();
  const found = useRedemptionSearch(search.keyword);
  const list = useListPaging(pages, found, search.searching);

  return (
    <>
      <PageHeader title={t('redemptions.title')}>
        <Button component={Link} to="/redemption/add">
          {t('redemptions.add')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <ListSearchBox search={search} placeholder={t('redemptions.search')} onSearch={list.reset} />
        <ListBody
          list={list}
          loadingPage={t('pageNames.redemption')}
          empty={<ListEmpty section="redemptions" searching={search.searching} addTo="/redemption/add" />}
          cards={(codes) => <RedemptionCards codes={codes} onCopyFailed={search.setInput} />}
          table={(codes) => <RedemptionsTable codes={codes} onCopyFailed={search.setInput} />}
        />
      </Paper>
    </>
  );
}
