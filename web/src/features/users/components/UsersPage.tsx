import { Button, Paper } from '@mantine/core';
import { userListOrders } from '@switchyard/contract/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListBody } from '../../../components/ListBody';
import { ListSearchBox } from '../../../components/ListSearchBox';
import { PageHeader } from '../../../components/PageHeader';
import { listOrder } from '../../../lib/list-order';
import { useKeywordSearch } from '../../../lib/use-keyword-search';
import { useListPaging } from '../../../lib/use-list-paging';
import { type UserOrder, useUserPages, useUserSearch } from '../api/users-list';
import { UserCards } from './UserCards';
import { UsersTable } from './UsersTable';

const ORDERS: UserOrder[] = ['', ...userListOrders];

export function UsersPage() {
  const { t } = useTranslation();
  const orderState = useState<UserOrder>('');
  const search = useKeywordSearch();
  const pages = useUserPages(orderState[0]);
  const found = useUserSearch(search.keyword);
  const list = useListPaging(pages, found, search.searching);
  const order = listOrder('users', ORDERS, orderState, search, list);

  return (
    <>
      <PageHeader title={t('users.title')}>
        <Button component={Link} to="/user/add">
          {t('users.add')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <ListSearchBox search={search} placeholder={t('users.search')} onSearch={list.reset} order={order} />
        <ListBody
          list={list}
          loadingPage={t('pageNames.user')}
          empty={<EmptyPanel title={t('users.empty')} text={t('users.emptyHint')} />}
          cards={(users) => <UserCards users={users} />}
          table={(users) => <UsersTable users={users} order={order} />}
        />
      </Paper>
    </>
  );
}
