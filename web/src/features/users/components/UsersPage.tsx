import { Button, Group, Paper, Select, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { needsFetch, pageCount, pageSlice } from '../../../lib/paging';
import { type UserOrder, type UserRow, useUserPages, useUserSearch } from '../api/users-list';
import { UserCards } from './UserCards';
import { UsersTable } from './UsersTable';

const ORDERS: UserOrder[] = ['', 'quota', 'used_quota', 'request_count'];

export function UsersPage() {
  const { t } = useTranslation();
  const [order, setOrder] = useState<UserOrder>('');
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const pages = useUserPages(order);
  const search = useUserSearch(keyword);
  const phone = useMediaQuery('(max-width: 36em)');

  const searching = keyword !== '';
  const rows: UserRow[] = searching ? (search.data ?? []) : (pages.data?.pages.flat() ?? []);
  const loading = searching ? search.isLoading : pages.isLoading;
  const total = pageCount(rows.length, !searching && pages.hasNextPage);
  const visible = pageSlice(rows, page).filter((user) => !user.deleted);

  const goTo = async (next: number) => {
    if (!searching && needsFetch(rows.length, next) && pages.hasNextPage) {
      const result = await pages.fetchNextPage();
      const fetched = result.data?.pages.at(-1) ?? [];
      if (fetched.length === 0) return;
    }
    setPage(next);
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(keywordInput.trim());
    setPage(1);
  };

  const sortOptions = ORDERS.map((value) => ({ value, label: t(`users.sort.${value || 'default'}`) }));

  return (
    <>
      <PageHeader title={t('users.title')}>
        <Button component={Link} to="/user/add">
          {t('users.add')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
          <form onSubmit={submitSearch} style={{ flex: '1 1 260px' }}>
            <TextInput
              placeholder={t('users.search')}
              aria-label={t('common.search')}
              value={keywordInput}
              onChange={(event) => setKeywordInput(event.currentTarget.value)}
            />
          </form>
          <Select
            w={{ base: '100%', xs: 200 }}
            aria-label={t('users.sort.label')}
            data={sortOptions}
            value={order}
            allowDeselect={false}
            onChange={(value) => {
              setOrder((value ?? '') as UserOrder);
              setKeyword('');
              setKeywordInput('');
              setPage(1);
            }}
          />
        </Group>
        {loading ? (
          <PageLoading page={t('pageNames.user')} />
        ) : visible.length === 0 ? (
          <EmptyPanel title={t('users.empty')} text={t('users.emptyHint')} />
        ) : phone ? (
          <UserCards users={visible} />
        ) : (
          <UsersTable users={visible} />
        )}
        <ListPagination total={total} value={page} onChange={(next) => void goTo(next)} />
      </Paper>
    </>
  );
}
