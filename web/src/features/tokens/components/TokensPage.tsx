import { Button, Group, Paper, Select, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useListPaging } from '../../../lib/use-list-paging';
import { type TokenOrder, useTokenPages, useTokenSearch } from '../api/tokens-list';
import { TokenCards } from './TokenCards';
import { TokensTable } from './TokensTable';

const ORDERS: TokenOrder[] = ['', 'remain_quota', 'used_quota'];

export function TokensPage() {
  const { t } = useTranslation();
  const [order, setOrder] = useState<TokenOrder>('');
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const pages = useTokenPages(order);
  const search = useTokenSearch(keyword);
  const searching = keyword !== '';
  const list = useListPaging(pages, search, searching);
  const phone = useMediaQuery('(max-width: 36em)');

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(keywordInput.trim());
    list.reset();
  };

  const refresh = () => {
    list.reset();
    void (searching ? search.refetch() : pages.refetch());
  };

  const sortOptions = ORDERS.map((value) => ({ value, label: t(`tokens.sort.${value || 'default'}`) }));

  return (
    <>
      <PageHeader title={t('tokens.title')}>
        <Button variant="default" onClick={refresh}>
          {t('common.refresh')}
        </Button>
        <Button component={Link} to="/token/add">
          {t('tokens.add')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
          <form onSubmit={submitSearch} style={{ flex: '1 1 260px' }}>
            <TextInput
              placeholder={t('tokens.search')}
              aria-label={t('common.search')}
              name="keyword"
              value={keywordInput}
              onChange={(event) => setKeywordInput(event.currentTarget.value)}
            />
          </form>
          <Select
            w={{ base: '100%', xs: 200 }}
            aria-label={t('tokens.sort.label')}
            data={sortOptions}
            value={order}
            allowDeselect={false}
            onChange={(value) => {
              setOrder((value ?? '') as TokenOrder);
              setKeyword('');
              setKeywordInput('');
              list.reset();
            }}
          />
        </Group>
        {list.loading ? (
          <PageLoading page={t('pageNames.token')} />
        ) : list.visible.length === 0 ? (
          <EmptyPanel
            title={searching ? t('tokens.noMatch') : t('tokens.empty')}
            text={searching ? t('tokens.noMatchText') : t('tokens.emptyText')}
          >
            {!searching && (
              <Button component={Link} to="/token/add" variant="light">
                {t('tokens.add')}
              </Button>
            )}
          </EmptyPanel>
        ) : phone ? (
          <TokenCards tokens={list.visible} onCopyFailed={setKeywordInput} />
        ) : (
          <TokensTable tokens={list.visible} onCopyFailed={setKeywordInput} />
        )}
        <ListPagination total={list.total} value={list.page} onChange={(next) => void list.goTo(next)} />
      </Paper>
    </>
  );
}
