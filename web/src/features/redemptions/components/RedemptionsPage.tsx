import { Button, Paper, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useListPaging } from '../../../lib/use-list-paging';
import { useRedemptionPages, useRedemptionSearch } from '../api/redemptions-list';
import { RedemptionCards } from './RedemptionCards';
import { RedemptionsTable } from './RedemptionsTable';

export function RedemptionsPage() {
  const { t } = useTranslation();
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const pages = useRedemptionPages();
  const search = useRedemptionSearch(keyword);
  const searching = keyword !== '';
  const list = useListPaging(pages, search, searching);
  const phone = useMediaQuery('(max-width: 36em)');

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(keywordInput.trim());
    list.reset();
  };

  return (
    <>
      <PageHeader title={t('redemptions.title')}>
        <Button component={Link} to="/redemption/add">
          {t('redemptions.add')}
        </Button>
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <form onSubmit={submitSearch}>
          <TextInput
            mb="md"
            placeholder={t('redemptions.search')}
            aria-label={t('common.search')}
            name="keyword"
            value={keywordInput}
            onChange={(event) => setKeywordInput(event.currentTarget.value)}
          />
        </form>
        {list.loading ? (
          <PageLoading page={t('pageNames.redemption')} />
        ) : list.visible.length === 0 ? (
          <EmptyPanel
            title={searching ? t('redemptions.noMatch') : t('redemptions.empty')}
            text={searching ? t('redemptions.noMatchText') : t('redemptions.emptyText')}
          >
            {!searching && (
              <Button component={Link} to="/redemption/add" variant="light">
                {t('redemptions.add')}
              </Button>
            )}
          </EmptyPanel>
        ) : phone ? (
          <RedemptionCards codes={list.visible} onCopyFailed={setKeywordInput} />
        ) : (
          <RedemptionsTable codes={list.visible} onCopyFailed={setKeywordInput} />
        )}
        <ListPagination total={list.total} value={list.page} onChange={(next) => void list.goTo(next)} />
      </Paper>
    </>
  );
}
