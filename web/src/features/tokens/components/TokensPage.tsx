import { Button, Paper } from '@mantine/core';
import { tokenListOrders } from '@switchyard/contract/tokens';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListBody, ListEmpty } from '../../../components/ListBody';
import { ListSearchBox } from '../../../components/ListSearchBox';
import { PageHeader } from '../../../components/PageHeader';
import { listOrder } from '../../../lib/list-order';
import { useKeywordSearch } from '../../../lib/use-keyword-search';
import { useListPaging } from '../../../lib/use-list-paging';
import { type TokenOrder, useTokenPages, useTokenSearch } from '../api/tokens-list';
import { TokenCards } from './TokenCards';
import { TokensTable } from './TokensTable';

const ORDERS: TokenOrder[] = ['', ...tokenListOrders];

export function TokensPage() {
  const { t } = useTranslation();
  const orderState = useState<TokenOrder>('');
  const search = useKeywordSearch();
  const pages = useTokenPages(orderState[0]);
  const found = useTokenSearch(search.keyword);
  const list = useListPaging(pages, found, search.searching);
  const order = listOrder('tokens', ORDERS, orderState, search, list);

  return (
    <>
      <PageHeader title={t('tokens.title')}>
        <Button variant="default" onClick={list.refresh}>
          {t('common.refresh')}
        </Button>
        <Button component={Link} to="/token/add">
          {t('tokens.add')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <ListSearchBox search={search} placeholder={t('tokens.search')} onSearch={list.reset} order={order} />
        <ListBody
          list={list}
          loadingPage={t('pageNames.token')}
          empty={<ListEmpty section="tokens" searching={search.searching} addTo="/token/add" />}
          cards={(tokens) => <TokenCards tokens={tokens} onCopyFailed={search.setInput} />}
          table={(tokens) => <TokensTable tokens={tokens} order={order} onCopyFailed={search.setInput} />}
        />
      </Paper>
    </>
  );
}
